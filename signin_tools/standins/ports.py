import socket
import time

# Ports this process has handed out. The kernel may hand the same free port to two calls in a row
# (nothing holds it between them), so an emulator could be told to bind one port twice.
_handed_out: set[int] = set()


class ExitedBeforeListening(RuntimeError):
    """A server process ended before it accepted on its port (usually: the port was taken)."""


def free_port() -> int:
    """A port the kernel says is free on 127.0.0.1 right now, never one handed out before here."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port
    raise RuntimeError("no fresh free port on 127.0.0.1 after 50 tries")


def wait_for_port(port: int, timeout: float = 10.0, proc=None) -> None:
    """Waits (bounded) until something accepts on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ExitedBeforeListening(f"process exited with {proc.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise TimeoutError(f"nothing listened on 127.0.0.1:{port} within {timeout}s")


def start_on_free_ports(launch, attempts: int = 3):
    """Runs ``launch()`` (which picks its ports with ``free_port`` and waits for them) up to
    ``attempts`` times while the process it starts exits before listening.

    A port is free when picked and bound by the server a moment later; in between any process on
    the machine (a client's ephemeral port included) can take it, and the server then exits (the
    emulator with status 2). Picking again is the whole remedy; anything else still fails.
    """
    for attempt in range(1, attempts + 1):
        try:
            return launch()
        except ExitedBeforeListening:
            if attempt == attempts:
                raise
