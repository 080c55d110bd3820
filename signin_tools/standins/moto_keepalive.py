"""moto_server's connections kept alive, as S3's and STS's are.

Werkzeug's development server answers every request with `Connection: close`: its handler cannot
tell where an unread request body ends, so it drains the socket after each answer and closes it.
So against moto every request opens a TCP connection, where S3 and STS keep connections open and a
warm Lambda sends each invocation's requests over the connections of the last one. Measured against
a closing moto, a warm sign-in spent a third of its CPU in the kernel opening and closing its five
connections (docs/decisions/runtime-and-http.md, "moto keeps connections alive, as S3 does").

This handler (moto's own, with one method replaced) speaks HTTP/1.1 as S3 does:
- the app reads the request body through a stream bounded by its Content-Length, and whatever it
  leaves unread is read and dropped before the next request, so a body never becomes a request line;
- the answer goes out in one write with its Content-Length (no chunking: moto builds whole answers);
- the connection stays open unless the client asks to close it, sent a body without a length (chunked,
  which S3 clients do not send; answered and closed), or the app failed (500, then closed).
Nothing else about moto changes: signature checking, the threaded server (one thread per connection;
an idle connection holds its thread until the client closes it, as a function's pool does when its
process stops).
"""
import socket
import traceback

from werkzeug.exceptions import InternalServerError
from werkzeug.wsgi import LimitedStream

from moto.moto_server.werkzeug_app import MotoRequestHandler

HOP_BY_HOP = frozenset(("connection", "keep-alive", "transfer-encoding", "content-length"))


class KeepAliveRequestHandler(MotoRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        # An answer is never held back for the acknowledgement of the last one: after an interim
        # `100 Continue` for an empty body, Nagle's algorithm waited out the client's delayed ACK (40 ms).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def run_wsgi(self) -> None:
        # `Expect: 100-continue` was answered by http.server already (parse_request, for HTTP/1.1).
        length = self._content_length()
        if length is None:
            # A chunked body (or a length that is no number): Werkzeug's own path, which closes
            # (and would answer the Expect a second time).
            del self.headers["Expect"]
            self.close_connection = True
            super().run_wsgi()
            return
        self.environ = environ = self.make_environ()
        body = LimitedStream(self.rfile, length)
        environ["wsgi.input"] = body
        try:
            status, headers, data = _collect(self.server.app, environ)
            body.exhaust()  # the part of the body the app did not read is not the next request
        except Exception:
            if self.server.passthrough_errors:
                raise
            self.server.log("error", "Error on request:\n%s", traceback.format_exc())
            self.close_connection = True
            status, headers, data = _collect(InternalServerError(), environ)
        self._answer(status, headers, data)

    def _content_length(self) -> int | None:
        """The request body's length (0 without one), or None when it has no usable length."""
        if self.headers.get("Transfer-Encoding"):
            return None
        value = self.headers.get("Content-Length")
        if value is None:
            return 0
        value = value.strip()
        return int(value) if value.isdigit() else None

    def _answer(self, status: str, headers: list[tuple[str, str]], data: bytes) -> None:
        code_text, _, reason = status.partition(" ")
        code = int(code_text)
        bodiless = self.command == "HEAD" or code in (204, 304) or 100 <= code < 200
        lines = [f"{self.protocol_version} {code} {reason}", f"Server: {self.version_string()}",
                 f"Date: {self.date_time_string()}"]
        for name, value in headers:
            # A HEAD answer keeps the length of what a GET would send; every other length is ours.
            if name.lower() not in HOP_BY_HOP or (bodiless and name.lower() == "content-length"):
                lines.append(f"{name}: {value}")
        if not bodiless:
            lines.append(f"Content-Length: {len(data)}")
        if self.close_connection:
            lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.log_request(code, len(data))
        # One write, so one segment and one wake-up of the client for a small answer.
        self.wfile.write(head if bodiless else head + data)


def _collect(app, environ) -> tuple[str, list[tuple[str, str]], bytes]:
    """Runs a WSGI app to the end: its status, headers and whole body."""
    started = {}
    chunks: list[bytes] = []

    def start_response(status, headers, exc_info=None):
        if exc_info and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started["status"], started["headers"] = status, list(headers)
        return chunks.append

    result = app(environ, start_response)
    try:
        chunks.extend(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return started["status"], started["headers"], b"".join(chunks)


def install() -> None:
    """moto_server's `main` runs Werkzeug with this handler."""
    from moto import server

    server.MotoRequestHandler = KeepAliveRequestHandler
