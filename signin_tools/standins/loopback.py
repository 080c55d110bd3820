import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that writes no access log (the tests' output stays theirs)."""

    def log_message(self, *args):
        pass


class _Server(ThreadingHTTPServer):
    # socketserver's default backlog is 5: a client opening more connections at once (the
    # app-transfer client sends a batch of 32 together) sees SYNs dropped and a 1 s retransmit.
    request_queue_size = 128


class LoopbackHTTPServer:
    """Base of the in-process stand-ins: a ThreadingHTTPServer on 127.0.0.1 on a port the kernel
    chooses at bind (so no other process can take it first), serving on a daemon thread.
    Subclasses give ``handler()``; a ``stop`` that extends this one calls it."""

    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    def handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def start(self):
        self.server = _Server(("127.0.0.1", 0), self.handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.server:
            if self.thread is not None and self.thread.ident is not None:  # shutdown() waits for a serve_forever that was never started
                self.server.shutdown()
            self.server.server_close()
            self.server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
