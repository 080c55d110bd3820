#!/usr/bin/env python3
"""A scripted loopback stand-in for S3/STS failures, for the Swift retry tests.

    aws_stub.py '{"*": ["503", "200"], "/bucket/k1": ["reset", "200"]}'

Each request takes the next action from the list for its path (else "*"); the last action
repeats. Actions: "200" (an S3-ish success with an ETag; GET bodies are "hello"), "204", "403",
"404", "412", "500", "503" (SlowDown), "409" (ConditionalRequestConflict), "reset" (TCP RST, no
answer), "stall" (no answer until the client gives up, at most 30 s), "delay:MS" (200 after MS
milliseconds; the bench uses it as a latency-bound S3). Prints {"port": N} once,
then answers "stats" lines on stdin with {"count": N, "requests": [...]} (each with its raw
request target and headers, so a test can check a signature against what arrived); stops when stdin closes
(or after --max-seconds). Binds 127.0.0.1 only.
"""
import json
import select
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ERRORS = {
    "403": ("AccessDenied", "Access Denied"),
    "404": ("NoSuchKey", "The specified key does not exist."),
    "412": ("PreconditionFailed", "At least one of the pre-conditions you specified did not hold"),
    "500": ("InternalError", "We encountered an internal error. Please try again."),
    "503": ("SlowDown", "Please reduce your request rate."),
    "409": ("ConditionalRequestConflict", "A conflicting conditional operation is currently in progress against this resource."),
}


class State:
    def __init__(self, script):
        self.script = {k: list(v) for k, v in script.items()}
        self.lock = threading.Lock()
        self.requests = []
        self.stop = threading.Event()

    def next_action(self, path):
        with self.lock:
            actions = self.script.get(path) or self.script.get("*") or ["200"]
            return actions.pop(0) if len(actions) > 1 else actions[0]


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path = self.path.split("?", 1)[0]
            with state.lock:
                state.requests.append({
                    "method": self.command, "path": self.path, "bodyBytes": len(body),
                    "signed": (self.headers.get("Authorization") or "").startswith("AWS4-HMAC-SHA256 Credential="),
                    "amzDate": self.headers.get("X-Amz-Date"), "t": time.monotonic(),
                    "headers": [[k, v] for k, v in self.headers.items()],
                })
            action = state.next_action(path)
            if action == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            if action == "stall":
                state.stop.wait(30)
                self.close_connection = True
                return
            if action.startswith("delay:"):  # a latency-bound server, like S3 seen from far away
                time.sleep(min(float(action.split(":", 1)[1]), 5000) / 1000)
                action = "200"
            if action in ("200", "204"):
                payload = b"hello" if self.command == "GET" else b""
                self.send_response(int(action))
                self.send_header("ETag", '"5d41402abc4b2a76b9719d911017c592"')
                self.send_header("x-amz-request-id", "STUBREQUEST")
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)
                return
            code, message = ERRORS[action]
            payload = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>{message}</Message>'
                       f'<RequestId>STUB-{len(state.requests)}</RequestId></Error>').encode()
            self.send_response(int(action))
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any

    return Handler


def main():
    script = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    max_seconds = 120.0
    state = State(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    deadline = time.monotonic() + max_seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([sys.stdin], [], [], 0.5)
            if not ready:
                continue
            line = sys.stdin.readline()
            if not line:
                break
            with state.lock:
                reply = {"count": len(state.requests), "requests": state.requests}
            print(json.dumps(reply), flush=True)
    finally:
        state.stop.set()
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
