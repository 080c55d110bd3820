"""scripts/serve: the three functions behind one loopback HTTP server that speaks Function URL, the
offline `sam local start-api` of this project (no Docker).

Each request `POST /auth-signin` (or /auth-refresh, /auth-link) becomes an HTTP payload v2 event for
that function's emulator; the function's `{statusCode, headers, body}` becomes the HTTP answer. One
emulator serves one invocation at a time (two at once make it panic), so each function has a
bounded pool of emulators: a request takes an idle one, or starts another while the pool is below
its bound (Lambda scaling out), or waits for one (bounded). On AWS each function has its own URL;
here each one is a path of one server.

Tests drive it in-process (`FunctionURLServer`): it counts requests per function and action, keeps
the trail of refresh tokens presented and issued as fingerprints (12 hex of SHA-256; never a token),
and injects the faults a phone sees (an answer lost after the function answered, a late answer, an
unreadable answer after the function answered, a 5xx or Lambda's 429 throttle from the front door).

A path below a function's (`POST /auth-signin/apple/callback`) reaches that function with the rest
as its `rawPath` (`/apple/callback`), whatever the method, as a Function URL passes every path and
method to its function."""
import base64
import hashlib
import json
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .events import url_event
from .standins.pool import EmulatorPool

FUNCTIONS = ("auth-signin", "auth-refresh", "auth-link")


def fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:12]


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A client that went away (a timeout, a dropped answer) is not an error of the server."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, OSError)):
            super().handle_error(request, client_address)


class FunctionURLServer:
    def __init__(self, bin_dir: Path, env_for, log_dir: Path, pool_size: int = 4, port: int = 0):
        """`env_for(name)` is that function's configuration: each function runs with its own
        identity (its role's grants, derived from template.yaml), as on AWS."""
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_dir = log_dir
        self.pools = {name: EmulatorPool(str(Path(bin_dir) / name), {**env_for(name), "AWS_LAMBDA_FUNCTION_NAME": name},
                                         log_dir, pool_size) for name in FUNCTIONS}
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.trail: list[dict] = []
        self.faults: list[dict] = []
        self.httpd = QuietServer(("127.0.0.1", port), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def urls(self) -> dict:
        return {name: f"{self.base_url}/{name}" for name in FUNCTIONS}

    def start(self) -> "FunctionURLServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.thread.ident is not None:  # shutdown() waits for a serve_forever that was never started
            self.httpd.shutdown()
        self.httpd.server_close()
        for pool in self.pools.values():
            pool.stop()

    # -- test hooks ------------------------------------------------------------------------------
    def reset(self) -> None:
        with self.lock:
            self.counts.clear()
            self.trail.clear()
            self.faults.clear()

    def clear_faults(self) -> None:
        """Disarms the faults not used yet (the counts and the trail stay)."""
        with self.lock:
            self.faults.clear()

    def inject(self, kind: str, function: str = "auth-refresh", action: str = "refresh", times: int = 1, **kw) -> None:
        """kind: "drop" (the function runs, its answer never reaches the client), "delay" (the
        answer waits `seconds` after the function answered), "corrupt" (the function runs, the
        client gets a 200 whose body is cut short), "unavailable" (a bare 503 before the function is
        reached), "throttle" (Lambda's 429 before the function is reached), "stall" (`seconds` of
        silence, then 504; the function is not reached)."""
        with self.lock:
            self.faults.append({"kind": kind, "function": function, "action": action, "times": times, **kw})

    def count(self, function: str, action: str) -> int:
        with self.lock:
            return self.counts.get(f"{function}:{action}", 0)

    def _take_fault(self, function: str, action: str) -> dict | None:
        with self.lock:
            for fault in self.faults:
                if fault["function"] == function and fault["action"] == action and fault["times"] > 0:
                    fault["times"] -= 1
                    return dict(fault)
        return None

    # -- one request -----------------------------------------------------------------------------
    def handle(self, function: str, body: bytes, content_type: str, path: str = "/", method: str = "POST",
               query: str = "") -> tuple[int, dict, bytes, dict | None]:
        try:
            event_body = json.loads(body) if body else {}
        except ValueError:
            event_body = None
        action = event_body.get("action", "refresh" if function == "auth-refresh" else "link") \
            if isinstance(event_body, dict) else "?"
        if function == "auth-signin":
            action = "signin" if path == "/" else path
        presented = event_body.get("refreshToken") if isinstance(event_body, dict) else None
        arrived = round(time.monotonic(), 2)
        with self.lock:
            key = f"{function}:{action}"
            self.counts[key] = self.counts.get(key, 0) + 1
        fault = self._take_fault(function, action)
        if fault and fault["kind"] == "unavailable":
            return 503, {"content-type": "text/plain"}, b"Service Unavailable", fault
        if fault and fault["kind"] == "throttle":  # Lambda's concurrency throttle: the function is not invoked
            return 429, {"content-type": "application/json"}, b'{"Message":"Rate Exceeded."}', fault
        if fault and fault["kind"] == "stall":  # the front door hangs; the function is never reached
            time.sleep(min(float(fault.get("seconds", 1)), 30))
            return 504, {"content-type": "text/plain"}, b"Gateway Timeout", fault
        try:
            text = body.decode("utf-8")
            event = url_event(text if body else None, path=path, method=method, query=query)
        except UnicodeDecodeError:
            event = url_event(base64.b64encode(body).decode(), base64_encoded=True, path=path, method=method, query=query)
        event["headers"]["content-type"] = content_type or "application/json"
        pool = self.pools[function]
        emu = pool.take()
        try:
            status, raw = emu.invoke_raw(json.dumps(event).encode(), timeout=60)
        finally:
            pool.give_back(emu)
        code, headers, out = self._url_answer(status, raw)
        issued = None
        try:
            issued = json.loads(out).get("data", {}).get("refreshToken")
        except (ValueError, AttributeError):
            pass
        if presented is not None or issued is not None:
            with self.lock:
                self.trail.append({"function": function, "action": action, "status": code,
                                   "presented": fingerprint(presented) if isinstance(presented, str) else None,
                                   "issued": fingerprint(issued) if isinstance(issued, str) else None,
                                   "delivered": not (fault and fault["kind"] in ("drop", "corrupt")),
                                   "arrived": arrived, "at": round(time.monotonic(), 2)})
        if fault and fault["kind"] == "corrupt":  # the function answered; the client reads half of it
            out = out[: len(out) // 2]
        return code, headers, out, fault

    @staticmethod
    def _url_answer(status: int, raw: bytes) -> tuple[int, dict, bytes]:
        """What Lambda's Function URL front door makes of the function's answer."""
        try:
            answer = json.loads(raw)
        except ValueError:
            return 502, {"content-type": "application/json"}, b'{"Message":"Internal Server Error"}'
        if status != 200 or (isinstance(answer, dict) and "errorType" in answer and "statusCode" not in answer):
            return 502, {"content-type": "application/json"}, b'{"Message":"Internal Server Error"}'
        if isinstance(answer, dict) and "statusCode" in answer:
            body = answer.get("body") or ""
            data = base64.b64decode(body) if answer.get("isBase64Encoded") else body.encode()
            return int(answer["statusCode"]), dict(answer.get("headers") or {}), data
        return 200, {"content-type": "application/json"}, raw

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet: request lines could carry nothing secret, but keep stdout for URLs
                pass

            def do_POST(self):
                self._forward("POST")

            def _forward(self, method: str):
                url = urllib.parse.urlsplit(self.path)
                function, _, rest = url.path.strip("/").partition("/")
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(min(length, 1 << 20)) if length else b""
                if function not in FUNCTIONS:
                    return self._send(404, {"content-type": "application/json"}, b'{"Message":"Not Found"}')
                if length > 1 << 20:  # Function URLs refuse request payloads over 6 MB; we stop sooner
                    return self._send(413, {"content-type": "application/json"}, b'{"Message":"Request Too Long"}')
                code, headers, out, fault = server.handle(function, body, self.headers.get("content-type", ""),
                                                          path="/" + rest, method=method, query=url.query)
                if fault and fault["kind"] == "drop":
                    # The function answered; the phone loses the connection in the middle of the answer.
                    self.close_connection = True
                    self.wfile.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{")
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault and fault["kind"] == "delay":
                    time.sleep(min(float(fault.get("seconds", 1)), 30))
                self._send(code, headers, out)

            def do_GET(self):
                if urllib.parse.urlsplit(self.path).path.strip("/").partition("/")[2]:
                    return self._forward("GET")  # a path below a function's: the function answers
                self._send(405, {"content-type": "application/json"}, b'{"Message":"Method Not Allowed"}')

            def _send(self, code, headers, out):
                self.send_response(code)
                for name, value in headers.items():
                    if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        return Handler

