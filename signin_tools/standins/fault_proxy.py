"""A loopback HTTP proxy that fails the way AWS fails, seeded and reproducible.

The functions get ``AWS_ENDPOINT_URL`` = the proxy (S3 path-style, STS and SSM on the same
endpoint); the proxy forwards each request to moto byte for byte. SigV4 signs the Host header
the client sent (``127.0.0.1:<proxy port>``), and moto checks the signature against the Host
header it receives, so the request line and every header go upstream unchanged.

Per request, a decision that depends only on ``(seed, n)`` (``n`` = the request's arrival number)
says whether it is faulted and how:

- ``internal_error``: 500 ``InternalError`` (S3's XML error body; STS's ``ErrorResponse``; SSM's
  JSON), not forwarded;
- ``slow_down``: 503 ``SlowDown`` (STS/SSM: their throttling error), not forwarded;
- ``conflict``: 409 ``ConditionalRequestConflict``, S3 writes only (what S3 answers a conditional
  write that raced another), not forwarded;
- ``reset``: the connection is reset (TCP RST) after the request arrived, not forwarded;
- ``stall``: no answer until the client gives up (closes) or ``stall_seconds`` pass, not forwarded;
- ``drop_answer``: forwarded and applied by moto, then the connection is reset instead of
  answering: the write happened and its answer was lost.

Besides the seeded faults, ``refuse`` (a predicate on the request) answers 403 ``AccessDenied``
to every request it matches, not forwarded: one exact step of a flow refused, as a missing grant
or a bucket policy would refuse it.

The fault rate and the kinds' weights are knobs; ``counts`` says what was injected. Requests the
tests make themselves go to moto directly, never through here. Every wait is bounded, every
thread is a daemon, ``stop()`` closes every socket.
"""
import collections
import http.client
import random
import socket
import struct
import threading
import time

KINDS = ("internal_error", "slow_down", "conflict", "reset", "stall", "drop_answer")
DEFAULT_WEIGHTS = {"internal_error": 3, "slow_down": 3, "conflict": 2, "reset": 2, "stall": 0.5, "drop_answer": 4}

MAX_HEAD = 64 * 1024
MAX_BODY = 16 * 1024 * 1024
IDLE_SECONDS = 30.0
UPSTREAM_SECONDS = 30.0


class Request:
    def __init__(self, head: bytes, body: bytes):
        self.head = head
        self.body = body
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3:
            raise ValueError("bad request line")
        self.method = parts[0].decode("ascii")
        self.target = parts[1].decode("latin-1")
        self.version = parts[2].decode("ascii")
        self.headers = {}
        for line in lines[1:]:
            if not line:
                continue
            name, _, value = line.partition(b":")
            self.headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")

    @property
    def service(self) -> str:
        """s3, sts or ssm, by shape: STS is a form POST to /, SSM a JSON POST with X-Amz-Target."""
        target = self.headers.get("x-amz-target", "")
        if target.startswith("AmazonSSM."):
            return "ssm"
        if self.method == "POST" and self.target.split("?")[0] == "/" and b"Action=" in self.body:
            return "sts"
        return "s3"

    @property
    def operation(self) -> str:
        """A short label for the fault log: `PUT /bucket/key`, `sts AssumeRole`, `ssm GetParameter`."""
        service = self.service
        if service == "ssm":
            return "ssm " + self.headers.get("x-amz-target", "").split(".")[-1]
        if service == "sts":
            for field in self.body.split(b"&"):
                if field.startswith(b"Action="):
                    return "sts " + field[7:].decode("latin-1")
            return "sts ?"
        return f"{self.method} {self.target.split('?')[0]}"

    @property
    def wants_close(self) -> bool:
        connection = self.headers.get("connection", "").lower()
        return connection == "close" or (self.version == "HTTP/1.0" and connection != "keep-alive")


def decide(seed, n: int, rate: float, service: str, method: str, weights: dict) -> str | None:
    """The fault for request number `n` (0-based, in arrival order): a pure function of its
    arguments, so a seed replays every decision. Two draws per request, always."""
    rng = random.Random(f"storm:{seed}:{n}")
    hit, pick = rng.random(), rng.random()
    if hit >= rate:
        return None
    kinds = [k for k in KINDS if weights.get(k, 0) > 0 and (k != "conflict" or (service == "s3" and method in ("PUT", "POST", "DELETE")))]
    if not kinds:
        return None
    total = sum(weights[k] for k in kinds)
    x = pick * total
    for k in kinds:
        x -= weights[k]
        if x < 0:
            return k
    return kinds[-1]


def error_answer(kind: str, service: str, request_id: str) -> bytes:
    """The status and body the real service sends for this failure."""
    if kind == "access_denied":
        status, reason, code, message = 403, "Forbidden", "AccessDenied", "Access Denied"
    elif kind == "conflict":
        status, reason, code, message = 409, "Conflict", "ConditionalRequestConflict", \
            "A conflicting operation occurred. If using PutObject you can retry the request."
    elif kind == "slow_down":
        status, reason = 503, "Slow Down"
        code, message = {"s3": ("SlowDown", "Please reduce your request rate."),
                         "sts": ("Throttling", "Rate exceeded"),
                         "ssm": ("ThrottlingException", "Rate exceeded")}[service]
    else:
        status, reason = 500, "Internal Server Error"
        code, message = {"s3": ("InternalError", "We encountered an internal error. Please try again."),
                         "sts": ("InternalFailure", "An internal error occurred."),
                         "ssm": ("InternalServerError", "An internal error occurred.")}[service]
    if service == "ssm":
        body = ('{"__type":"%s","message":"%s"}' % (code, message)).encode()
        ctype = "application/x-amz-json-1.1"
        rid = "x-amzn-RequestId"
    elif service == "sts":
        body = (f'<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Receiver</Type>'
                f"<Code>{code}</Code><Message>{message}</Message></Error><RequestId>{request_id}</RequestId></ErrorResponse>").encode()
        ctype = "text/xml"
        rid = "x-amzn-RequestId"
    else:
        body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>{message}</Message>'
                f"<RequestId>{request_id}</RequestId><HostId>storm</HostId></Error>").encode()
        ctype = "application/xml"
        rid = "x-amz-request-id"
    head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
            f"{rid}: {request_id}\r\n\r\n").encode()
    return head + body


class FaultProxy:
    """``FaultProxy(upstream_port, seed=..., rate=...)``: ``start()``, ``endpoint``, ``counts``,
    ``set_rate()``, ``stop()``."""

    def __init__(self, upstream_port: int, seed=0, rate: float = 0.0, weights: dict | None = None,
                 stall_seconds: float = 6.0, max_connections: int = 128, log_size: int = 50_000, refuse=None,
                 only=None):
        self.upstream_port = upstream_port
        self.refuse = refuse  # Request -> bool: answered 403 AccessDenied, not forwarded
        # `only(method, target)`: when given, the requests it answers False for are never faulted
        # (a test that stages one failing step, e.g. every PUT of providers.json).
        self.only = only
        self.seed = seed
        self.rate = rate
        self.weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        self.stall_seconds = stall_seconds
        self.counts = collections.Counter()  # fault kind -> injected
        self.requests = 0  # requests received (the next one's number)
        self.forwarded = 0
        self.by_service = collections.Counter()
        self.log = collections.deque(maxlen=log_size)  # (n, kind, operation) of each fault
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._slots = threading.BoundedSemaphore(max_connections)
        self._clients: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._listener = None
        self._acceptor = None
        self.port = 0

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def set_rate(self, rate: float) -> None:
        with self._lock:
            self.rate = rate

    def summary(self) -> dict:
        with self._lock:
            return {"requests": self.requests, "forwarded": self.forwarded, "by_service": dict(self.by_service),
                    "faults": {k: self.counts.get(k, 0) for k in KINDS}}

    def faults_touching(self, text: str) -> list[tuple[int, str, str]]:
        """The logged faults whose operation label contains `text` (a key, an account UUID)."""
        with self._lock:
            return [entry for entry in self.log if text in entry[2]]

    # -- server -----------------------------------------------------------------------------

    def start(self) -> "FaultProxy":
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._acceptor = threading.Thread(target=self._accept_loop, name="fault-proxy-accept", daemon=True)
        self._acceptor.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._acceptor:
            self._acceptor.join(timeout=5)
        if self._listener:
            self._listener.close()
            self._listener = None
        with self._lock:
            clients = list(self._clients)
        for s in clients:
            try:
                s.shutdown(socket.SHUT_RDWR)  # wakes a thread blocked in recv
            except OSError:
                pass
            _close(s)
        for t in list(self._threads):
            t.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            if not self._slots.acquire(timeout=IDLE_SECONDS):
                _reset(conn)
                continue
            conn.settimeout(IDLE_SECONDS)
            with self._lock:
                self._clients.add(conn)
                self._threads = [t for t in self._threads if t.is_alive()]
                t = threading.Thread(target=self._serve, args=(conn,), name="fault-proxy-conn", daemon=True)
                self._threads.append(t)
            t.start()

    def _serve(self, conn: socket.socket) -> None:
        reader = _Reader(conn)
        try:
            while not self._stopping.is_set():
                try:
                    request = reader.request()
                except (OSError, ValueError):
                    return
                if request is None:
                    return
                if not self._handle(conn, request):
                    return
        finally:
            with self._lock:
                self._clients.discard(conn)
            _close(conn)
            self._slots.release()

    def _handle(self, conn: socket.socket, request: Request) -> bool:
        """Answers one request; False when the connection is finished."""
        service = request.service
        with self._lock:
            n = self.requests
            self.requests += 1
            rate = self.rate
            self.by_service[service] += 1
        kind = decide(self.seed, n, rate, service, request.method, self.weights)
        if self.only is not None and not self.only(request.method, request.target):
            kind = None
        if self.refuse is not None and self.refuse(request):
            kind = "access_denied"
        if kind is not None:
            with self._lock:
                self.counts[kind] += 1
                self.log.append((n, kind, request.operation))
        if kind in ("internal_error", "slow_down", "conflict", "access_denied"):
            conn.sendall(error_answer(kind, service, f"STORM{n:012d}"))
            return not request.wants_close
        if kind == "reset":
            _reset(conn)
            return False
        if kind == "stall":
            self._stall(conn)
            return False
        answer = self._forward(request)
        if answer is None:  # moto itself failed to answer: the client sees a reset
            _reset(conn)
            return False
        if kind == "drop_answer":
            _reset(conn)
            return False
        conn.sendall(answer)
        return not request.wants_close

    def _forward(self, request: Request) -> bytes | None:
        try:
            with socket.create_connection(("127.0.0.1", self.upstream_port), timeout=UPSTREAM_SECONDS) as up:
                up.sendall(request.head + b"\r\n\r\n" + request.body)
                response = http.client.HTTPResponse(up, method=request.method)
                response.begin()
                body = response.read()
                status, reason, headers = response.status, response.reason, response.getheaders()
        except (OSError, http.client.HTTPException):
            return None
        with self._lock:
            self.forwarded += 1
        bodiless = request.method == "HEAD" or status in (204, 304) or 100 <= status < 200
        lines = [f"HTTP/1.1 {status} {reason}"]
        for name, value in headers:
            lower = name.lower()
            if lower in ("connection", "keep-alive", "transfer-encoding") or (lower == "content-length" and not bodiless):
                continue
            lines.append(f"{name}: {value}")
        if not bodiless:
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if bodiless else body)

    def _stall(self, conn: socket.socket) -> None:
        """Holds the request unanswered until the client closes or `stall_seconds` pass."""
        deadline = time.monotonic() + self.stall_seconds
        while not self._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            conn.settimeout(min(left, 0.2))
            try:
                if conn.recv(4096) == b"":
                    break  # the client gave up
            except socket.timeout:
                continue
            except OSError:
                break
        _reset(conn)


class _Reader:
    """Reads HTTP/1.1 requests (Content-Length bodies) off one client connection."""

    def __init__(self, conn: socket.socket):
        self.conn = conn
        self.buffer = b""

    def _fill(self) -> bool:
        chunk = self.conn.recv(65536)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def request(self) -> Request | None:
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > MAX_HEAD:
                raise ValueError("request head too large")
            if not self._fill():
                return None
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        request = Request(head, b"")
        if "chunked" in request.headers.get("transfer-encoding", "").lower():
            raise ValueError("chunked request bodies are not supported")
        length = int(request.headers.get("content-length") or 0)
        if length < 0 or length > MAX_BODY:
            raise ValueError("bad Content-Length")
        if request.headers.get("expect", "").lower() == "100-continue" and len(self.buffer) < length:
            self.conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        while len(self.buffer) < length:
            if not self._fill():
                return None
        request.body, self.buffer = self.buffer[:length], self.buffer[length:]
        return request


def _reset(conn: socket.socket) -> None:
    """Closes with RST (SO_LINGER 0): what the client sees when a connection is reset."""
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    _close(conn)


def _close(conn: socket.socket) -> None:
    try:
        conn.close()
    except OSError:
        pass
