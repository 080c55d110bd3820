"""A scripted stand-in for the Lambda Runtime API, for what the official emulator cannot do:
answer 500, drop the connection, send every invocation header (trace id, client context,
Cognito identity), and show exactly what the runtime posted (paths, headers, bodies).

Binds 127.0.0.1 on a free port. Each `GET next` takes the next step of a script; when the script
is exhausted the stub answers 500 (so a well-behaved runtime exits instead of waiting forever).
"""
import http.server
import json
import socketserver
import subprocess
import threading
import time

NEXT = "/2018-06-01/runtime/invocation/next"


class Invocation:
    """One scripted `next` answer."""

    def __init__(self, request_id: str, event: bytes = b"{}", headers: dict | None = None):
        self.request_id = request_id
        self.event = event
        self.headers = headers or {}


class Drop:
    """Closes the connection without an answer."""


class Fail:
    def __init__(self, status: int = 500):
        self.status = status


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class RuntimeStub:
    def __init__(self, script: list):
        self.script = list(script)
        self.posts: list[dict] = []  # {"path", "headers", "body"}
        self.gets = 0
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path != NEXT:
                    self._answer(404, b"{}")
                    return
                with stub.lock:
                    stub.gets += 1
                    step = stub.script.pop(0) if stub.script else Fail(500)
                    stub.cond.notify_all()
                if isinstance(step, Drop):
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if isinstance(step, Fail):
                    self._answer(step.status, b'{"errorType":"Stub.Failure","errorMessage":"scripted"}')
                    return
                headers = {"Lambda-Runtime-Aws-Request-Id": step.request_id,
                           "Lambda-Runtime-Deadline-Ms": str(int(time.time() * 1000) + 5000),
                           "Lambda-Runtime-Invoked-Function-Arn": "arn:aws:lambda:us-east-1:000000000000:function:stub"}
                headers.update(step.headers)
                self._answer(200, step.event, headers)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with stub.lock:
                    stub.posts.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                    stub.cond.notify_all()
                self._answer(202, b'{"status":"OK"}')

            def _answer(self, status, body, headers=None):
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def run(self, executable: str, env: dict, timeout: float = 20.0) -> subprocess.CompletedProcess:
        """Runs the executable against this stub until it exits (bounded by `timeout`)."""
        full_env = dict(env)
        full_env["AWS_LAMBDA_RUNTIME_API"] = self.endpoint
        proc = subprocess.Popen([executable], env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate(timeout=5)
            raise AssertionError(f"{executable} did not exit within {timeout}s; stderr: {err[-2000:]!r}")
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def post(self, path_suffix: str) -> dict:
        matches = [p for p in self.posts if p["path"].endswith(path_suffix)]
        assert len(matches) == 1, f"expected one POST ending {path_suffix}, got {[p['path'] for p in self.posts]}"
        return matches[0]

    def json_post(self, path_suffix: str) -> dict:
        return json.loads(self.post(path_suffix)["body"])
