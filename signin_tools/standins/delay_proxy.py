"""A loopback proxy in front of scripts/serve's Function URL server that holds chosen requests
before forwarding them: an attempt that reaches the function late, after the client may have
given up on it (Lambda's front door has the request; the invocation starts later). A held request
is forwarded whatever the client does meanwhile; its answer goes back only if the client is still
there. ``hold_answer`` holds the function's answer instead (the server has committed; the phone
has not read it yet), then delivers or drops it: an app frozen or killed in the middle of a refresh.
``events`` says, per request, whether it was held and whether the client got the answer.
Every wait is bounded; threads are daemons; ``stop()`` closes the listening socket."""
import http.client
import json
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_HOLD_SECONDS = 30.0
UPSTREAM_SECONDS = 60.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # a client that gave up is what this proxy is for
        pass


class DelayProxy:
    def __init__(self, upstream_base: str):
        parts = urllib.parse.urlsplit(upstream_base)
        self.upstream = (parts.hostname, parts.port)
        self.lock = threading.Lock()
        self.holds: list[dict] = []
        self.answer_holds: list[dict] = []
        self.events: list[dict] = []
        self.httpd = _Server(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> "DelayProxy":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def hold(self, function: str, action: str, seconds: float, times: int = 1) -> None:
        with self.lock:
            self.holds.append({"function": function, "action": action, "seconds": min(seconds, MAX_HOLD_SECONDS),
                               "times": times})

    def hold_answer(self, function: str, action: str, seconds: float, drop: bool = False, times: int = 1) -> None:
        """The request goes on at once; its answer waits ``seconds``, then goes back, or (``drop``)
        the connection is closed without one."""
        with self.lock:
            self.answer_holds.append({"function": function, "action": action, "times": times, "drop": drop,
                                      "seconds": min(seconds, MAX_HOLD_SECONDS)})

    def _take_answer_hold(self, function: str, action: str) -> dict | None:
        with self.lock:
            for hold in self.answer_holds:
                if hold["function"] == function and hold["action"] == action and hold["times"] > 0:
                    hold["times"] -= 1
                    return dict(hold)
        return None

    def _take_hold(self, function: str, action: str) -> float:
        with self.lock:
            for hold in self.holds:
                if hold["function"] == function and hold["action"] == action and hold["times"] > 0:
                    hold["times"] -= 1
                    return hold["seconds"]
        return 0.0

    def _forward(self, path: str, body: bytes, content_type: str) -> tuple[int, list, bytes]:
        conn = http.client.HTTPConnection(*self.upstream, timeout=UPSTREAM_SECONDS)
        try:
            conn.request("POST", path, body=body, headers={"content-type": content_type or "application/json"})
            answer = conn.getresponse()
            return answer.status, answer.getheaders(), answer.read()
        finally:
            conn.close()

    def _handler(self):
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = min(int(self.headers.get("content-length") or 0), 1 << 20)
                body = self.rfile.read(length) if length else b""
                function = urllib.parse.urlsplit(self.path).path.strip("/")
                try:
                    parsed = json.loads(body)
                    action = parsed.get("action", "refresh") if function == "auth-refresh" else function
                except (ValueError, AttributeError):
                    action = "?"
                seconds = proxy._take_hold(function, action)
                if seconds:
                    time.sleep(seconds)
                status, headers, out = proxy._forward(self.path, body, self.headers.get("content-type", ""))
                answer_hold = proxy._take_answer_hold(function, action)
                if answer_hold:
                    time.sleep(answer_hold["seconds"])
                if answer_hold and answer_hold["drop"]:
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    with proxy.lock:
                        proxy.events.append({"function": function, "action": action, "held": 0.0,
                                             "answer_held": answer_hold["seconds"], "status": status,
                                             "delivered": False})
                    return
                delivered = True
                try:
                    self.send_response(status)
                    for name, value in headers:
                        if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                            self.send_header(name, value)
                    self.send_header("content-length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                    self.wfile.flush()
                except OSError:
                    delivered = False
                with proxy.lock:
                    proxy.events.append({"function": function, "action": action, "held": seconds,
                                         "status": status, "delivered": delivered})

        return Handler
