import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 (Python's http.server, threaded), started once per test
/// process. It prints its port, and exits when its stdin closes (i.e. when the test process
/// ends) or after 10 minutes, whichever comes first.
///
/// Routes: `/echo` (any method: answers JSON with method, path, headers, body, client port),
/// `/status/N`, `/big/N` (N bytes), `/slow/MS`, `/barrier/NAME/N` (answers only when N requests
/// named NAME are in flight at once; 504 if that does not happen within 5 s), `/drop` (closes
/// the connection without an answer).
final class LoopbackServer: @unchecked Sendable {
    static let shared: LoopbackServer = try! LoopbackServer()

    let port: Int
    private let process: Process
    private let stdin: Pipe

    var base: String { "http://127.0.0.1:\(port)" }

    private init() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("curlhttp-loopback-\(getpid()).py")
        try LoopbackServer.source.write(to: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let line = stdout.fileHandleForReading.readLine()
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// A port nothing listens on (bound, then closed: the kernel refuses connections to it).
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static let source = #"""
        import base64, http.server, json, os, socketserver, sys, threading, time

        barriers = {}
        lock = threading.Lock()

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def answer(self, status, body=b"", headers=(), length=None):
                self.send_response(status)
                for k, v in headers: self.send_header(k, v)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.end_headers()
                if self.command != "HEAD": self.wfile.write(body)
            def handle_any(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                parts = self.path.strip("/").split("/")
                if parts[0] == "echo":
                    doc = {"method": self.command, "path": self.path, "port": self.client_address[1],
                           "headers": [[k, v] for k, v in self.headers.items()], "body": base64.b64encode(body).decode()}
                    self.answer(200, json.dumps(doc).encode(), [("Content-Type", "application/json"), ("X-Multi", "one"), ("x-multi", "two")])
                elif parts[0] == "status":
                    code = int(parts[1])
                    self.answer(code, b"" if code in (204, 304) else b"status body", [("X-Status", parts[1])])
                elif parts[0] == "big":
                    self.answer(200, b"b" * int(parts[1]))
                elif parts[0] == "head":
                    self.answer(200, b"", [("X-Head", "yes")], length=123)
                elif parts[0] == "slow":
                    time.sleep(min(int(parts[1]), 10000) / 1000)
                    self.answer(200, b"slow")
                elif parts[0] == "barrier":
                    name, count = parts[1], int(parts[2])
                    with lock:
                        b = barriers.setdefault(name, threading.Barrier(count, timeout=5))
                    try:
                        b.wait()
                        self.answer(200, b"together")
                    except threading.BrokenBarrierError:
                        self.answer(504, b"alone")
                elif parts[0] == "drop":
                    self.close_connection = True
                    self.connection.shutdown(2)
                else:
                    self.answer(404, b"no route")
            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any

        class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        srv = S(("127.0.0.1", 0), H)
        print(srv.server_address[1], flush=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        threading.Timer(600, lambda: os._exit(0)).start()
        sys.stdin.read()
        os._exit(0)
        """#
}

private extension FileHandle {
    func readLine() -> String {
        var bytes = [UInt8]()
        while bytes.count < 64 {
            let chunk = readData(ofLength: 1)
            guard let b = chunk.first else { break }
            if b == 0x0a { break }
            bytes.append(b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
