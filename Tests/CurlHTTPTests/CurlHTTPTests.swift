import Foundation
import PlatformSupport
import Testing

@testable import CurlHTTP

private var server: LoopbackServer { LoopbackServer.shared }

private struct Echo {
    let method: String
    let path: String
    let port: Int
    let headers: [(String, String)]
    let body: [UInt8]

    init(_ response: HTTPResponse) throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        method = doc["method"] as! String
        path = doc["path"] as! String
        port = doc["port"] as! Int
        headers = (doc["headers"] as! [[String]]).map { ($0[0], $0[1]) }
        body = [UInt8](Data(base64Encoded: doc["body"] as! String)!)
    }

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    func has(_ name: String) -> Bool { header(name) != nil }
}

@Suite(.serialized) struct EasyHandleTests {
    @Test func getSendsHeadersAndReadsStatusHeadersBody() throws {
        let h = try EasyHandle()
        let r = try h.perform(
            HTTPRequest(
                url: "\(server.base)/echo/x?q=1", headers: [("X-One", "1"), ("X-Empty", ""), ("x-case", "Keep")]))
        #expect(r.status == 200)
        #expect(r.header("content-type") == "application/json")
        #expect(r.header("CONTENT-TYPE") == "application/json")
        #expect(r.header("x-multi") == "one")  // the first of repeated headers
        #expect(r.headers.filter { $0.name.lowercased() == "x-multi" }.map(\.value) == ["one", "two"])
        let echo = try Echo(r)
        #expect(echo.method == "GET" && echo.path == "/echo/x?q=1")
        #expect(echo.header("X-One") == "1")
        #expect(echo.header("X-Empty") == "")  // sent empty, not dropped
        #expect(echo.header("x-case") == "Keep")
        #expect(!echo.has("Expect") && !echo.has("Content-Type") && echo.body.isEmpty)
    }

    @Test func putAndPostCarryTheirBodyVerbatim() throws {
        let h = try EasyHandle()
        var body = [UInt8](repeating: 0, count: 300_000)
        for i in body.indices { body[i] = UInt8(truncatingIfNeeded: i &* 31) }  // includes NUL bytes
        let put = try Echo(
            h.perform(
                HTTPRequest(
                    method: "PUT", url: "\(server.base)/echo", headers: [("Content-Type", "application/octet-stream")],
                    body: body)))
        #expect(put.method == "PUT" && put.body == body)
        #expect(put.header("Content-Type") == "application/octet-stream")
        #expect(!put.has("Expect"))  // no 100-continue round trip
        let post = try Echo(h.perform(HTTPRequest(method: "POST", url: "\(server.base)/echo", body: Array("a=1".utf8))))
        #expect(post.method == "POST" && post.body == Array("a=1".utf8))
        #expect(!post.has("Content-Type"))  // not curl's form type
        let empty = try Echo(h.perform(HTTPRequest(method: "PUT", url: "\(server.base)/echo")))
        #expect(empty.method == "PUT" && empty.body.isEmpty && empty.header("Content-Length") == "0")
        let delete = try Echo(h.perform(HTTPRequest(method: "DELETE", url: "\(server.base)/echo")))
        #expect(delete.method == "DELETE")
        // A GET after a PUT on the same handle is a plain GET again (options are reset).
        let get = try Echo(h.perform(HTTPRequest(url: "\(server.base)/echo")))
        #expect(get.method == "GET" && get.body.isEmpty && !get.has("Content-Length"))
    }

    @Test func headHasHeadersAndNoBody() throws {
        let h = try EasyHandle()
        let r = try h.perform(HTTPRequest(method: "HEAD", url: "\(server.base)/head"))
        #expect(r.status == 200 && r.body.isEmpty)
        #expect(r.header("Content-Length") == "123" && r.header("X-Head") == "yes")
        #expect(try h.perform(HTTPRequest(url: "\(server.base)/big/10")).body.count == 10)
    }

    @Test func errorStatusesAreResponsesNotErrors() throws {
        let h = try EasyHandle()
        for code in [204, 304, 404, 412, 500, 503] {
            let r = try h.perform(HTTPRequest(url: "\(server.base)/status/\(code)"))
            #expect(r.status == code)
            #expect(r.header("X-Status") == String(code))
            #expect(r.bodyText == (code == 204 || code == 304 ? "" : "status body"))
        }
    }

    @Test func oneHandleKeepsItsConnection() throws {
        let h = try EasyHandle()
        let ports = try (0..<5).map { _ in try Echo(h.perform(HTTPRequest(url: "\(server.base)/echo"))).port }
        #expect(Set(ports).count == 1)
    }

    @Test func timeoutKind() throws {
        let h = try EasyHandle()
        do {
            _ = try h.perform(HTTPRequest(url: "\(server.base)/slow/3000", timeoutMilliseconds: 200))
            Issue.record("no timeout")
        } catch {
            #expect(error.kind == .timeout && error.isRetryable)
        }
        #expect(try h.perform(HTTPRequest(url: "\(server.base)/big/3")).body.count == 3)  // usable afterwards
    }

    @Test func connectionRefusedKind() throws {
        let h = try EasyHandle()
        do {
            _ = try h.perform(
                HTTPRequest(url: "http://127.0.0.1:\(LoopbackServer.closedPort())/", timeoutMilliseconds: 2000))
            Issue.record("connected")
        } catch {
            #expect(error.kind == .connection && error.isRetryable)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func droppedConnectionKind() throws {
        let h = try EasyHandle()
        do {
            _ = try h.perform(HTTPRequest(url: "\(server.base)/drop"))
            Issue.record("answered")
        } catch {
            #expect(error.kind == .connection)
        }
    }

    @Test func responseLimit() throws {
        let h = try EasyHandle(maxResponseBytes: 1000)
        #expect(try h.perform(HTTPRequest(url: "\(server.base)/big/1000")).body.count == 1000)
        do {
            _ = try h.perform(HTTPRequest(url: "\(server.base)/big/5000"))
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .responseTooLarge && !error.isRetryable)
        }
        #expect(try h.perform(HTTPRequest(url: "\(server.base)/big/7")).body.count == 7)
    }

    @Test func perRequestResponseLimit() throws {
        let h = try EasyHandle()  // the handle's own limit is 16 MiB
        do {
            _ = try h.perform(HTTPRequest(url: "\(server.base)/big/5000", maxResponseBytes: 4096))
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .responseTooLarge && error.message.contains("4096"))
        }
        // The next transfer on the same handle is back to the handle's limit.
        #expect(try h.perform(HTTPRequest(url: "\(server.base)/big/5000")).body.count == 5000)
        let client = try HTTPClient()
        let results = client.sendAll([
            HTTPRequest(url: "\(server.base)/big/5000", maxResponseBytes: 100),
            HTTPRequest(url: "\(server.base)/big/50"),
        ])
        guard case .failure(let e) = results[0], case .success(let ok) = results[1] else {
            Issue.record("limits mixed up")
            return
        }
        #expect(e.kind == .responseTooLarge && ok.body.count == 50)
    }

    /// Issue 23, defect 1: the request target on the wire is the URL's path byte for byte, dot
    /// segments, empty segments and percent-escapes included (a SigV4 signature covers it as given).
    @Test func thePathGoesOutExactlyAsGiven() throws {
        let paths = [
            "/echo/photos/../video.mov", "/echo/photos/./a.jpg", "/echo/a/b/..", "/echo/.", "/echo//x//",
            "/echo/ctl%01/../x.jpg", "/echo/%2E%2E/%2e/x", "/echo/sp%20ace+plus%25",
        ]
        let h = try EasyHandle()
        let client = try HTTPClient()
        for path in paths {
            #expect(try Echo(h.perform(HTTPRequest(url: server.base + path))).path == path, "easy: \(path)")
            let viaMulti = try Echo(client.send(HTTPRequest(method: "DELETE", url: server.base + path + "?v=1")).get())
            #expect(viaMulti.path == path + "?v=1", "multi: \(path)")
        }
    }

    @Test func badURLIsOther() throws {
        let h = try EasyHandle()
        do {
            _ = try h.perform(HTTPRequest(url: "nosuchscheme://x/"))
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .other && !error.isRetryable)
        }
    }
}

@Suite(.serialized) struct HTTPClientTests {
    @Test func sendAllOverlapsAndKeepsOrder() throws {
        let client = try HTTPClient()
        let name = "b\(UInt32.random(in: 0...UInt32.max))"
        // Each request is answered only once all four are in flight together (else 504).
        var requests = (0..<4).map { _ in HTTPRequest(url: "\(server.base)/barrier/\(name)/4") }
        requests.append(HTTPRequest(url: "\(server.base)/status/404"))
        requests.append(HTTPRequest(url: "http://127.0.0.1:\(LoopbackServer.closedPort())/", timeoutMilliseconds: 2000))
        let results = client.sendAll(requests)
        #expect(results.count == 6)
        for r in results.prefix(4) {
            let response = try r.get()
            #expect(response.status == 200 && response.bodyText == "together")
        }
        #expect(try results[4].get().status == 404)
        if case .failure(let e) = results[5] { #expect(e.kind == .connection) } else { Issue.record("connected") }
        #expect(client.requestCount == 6 && client.roundCount == 1)
        client.resetCounters()
        #expect(client.requestCount == 0 && client.roundCount == 0)
        #expect(client.sendAll([]).isEmpty)
    }

    @Test func sendReusesPooledConnections() throws {
        let client = try HTTPClient()
        let ports = try (0..<4).map { _ in try Echo(client.send(HTTPRequest(url: "\(server.base)/echo")).get()).port }
        #expect(Set(ports).count == 1)
        let put = try Echo(
            client.send(HTTPRequest(method: "PUT", url: "\(server.base)/echo", body: Array("x".utf8))).get())
        #expect(put.method == "PUT" && put.body == Array("x".utf8))
    }

    @Test func timeoutInABatchFailsOnlyThatRequest() throws {
        let client = try HTTPClient()
        let results = client.sendAll([
            HTTPRequest(url: "\(server.base)/slow/3000", timeoutMilliseconds: 200),
            HTTPRequest(url: "\(server.base)/big/5"),
        ])
        if case .failure(let e) = results[0] { #expect(e.kind == .timeout) } else { Issue.record("no timeout") }
        #expect(try results[1].get().body.count == 5)
    }
}

@Suite struct RetryAndDeadline {
    @Test func backoffIsBoundedAndJittered() {
        let p = RetryPolicy(maxAttempts: 5, baseDelayMilliseconds: 50, maxDelayMilliseconds: 300)
        for retry in 1...8 {
            for _ in 0..<50 {
                let d = p.delay(beforeRetry: retry)
                #expect(d >= 0 && d <= min(300, 50 << (retry - 1)))
            }
        }
        #expect(RetryPolicy(baseDelayMilliseconds: 0).delay(beforeRetry: 1) == 0)
        #expect(p.delay(beforeRetry: 1_000) <= 300)  // huge retry counts do not overflow
    }

    @Test func deadlineTimeouts() {
        #expect(Deadline.after(milliseconds: 10_000).requestTimeout(cap: 2_000) == 2_000)
        #expect(Deadline.after(milliseconds: -5).requestTimeout(cap: 2_000) == 1)
        #expect(Deadline.none.remainingMilliseconds > 1 << 60)
        let d = Deadline.after(milliseconds: 500)
        #expect(d.remainingMilliseconds <= 500 && d.remainingMilliseconds > 0)
    }
}
