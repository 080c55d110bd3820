"""The processes the tools start, and a shutdown that no signal cuts short.

Each stand-in process (moto, an emulator with its function, a stub) runs in its own session, so a
Ctrl-C meant for the tool never reaches it half-way through a request; the price is that nothing but
the tool stops it. So every tool that starts one (serve, invoke, demo, the bench drivers, the
Swift tests' serve_standins, and pytest for the storm and the integration tests) uses this one
mechanism (docs/decisions/tests-and-tools.md, "Interrupted tools"):

- `start_process_group` starts a process and registers it as one step no signal splits (a signal
  arriving meanwhile is raised just after); once shutdown has begun, nothing new starts.
- `stop_process_group` stops one: SIGTERM to its group, SIGKILL after a grace, and unregisters it.
- `run_main(main)` runs a tool's main: the first SIGINT, SIGTERM or SIGHUP raises `Interrupted` (a
  KeyboardInterrupt), and every later one is ignored, so the `finally` blocks and `__exit__`s that
  exception unwinds through, and the `stop_all` of whatever is still registered after them, run to
  the end. A tool interrupted by signal N exits with 128 + N.
"""
import os
import signal
import subprocess
import threading
import time
from contextlib import contextmanager

STOP_GRACE_SECONDS = 5.0
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(KeyboardInterrupt):
    """The first signal asking the tool to stop; `signo` is its number."""

    def __init__(self, signo: int):
        super().__init__(signal.Signals(signo).name)
        self.signo = signo


class _State:
    def __init__(self):
        self.lock = threading.Lock()   # guards `started` and `closed`
        self.started: dict[int, subprocess.Popen] = {}
        self.closed = False            # shutdown began: nothing new starts
        self.held = 0                  # depth of held_signals() in the main thread
        self.pending = 0               # the first signal that arrived while held
        self.stopping = False          # a signal was raised (or shutdown began): later ones are ignored
        self.ignored = 0


_state = _State()


def _on_signal(signo, _frame) -> None:
    if _state.stopping:
        _state.ignored += 1
        if _state.ignored == 1:
            try:
                os.write(2, f"({signal.Signals(signo).name} ignored: stopping what was started first)\n".encode())
            except OSError:
                pass  # no stderr to say it on
        return
    if _state.held:
        _state.pending = _state.pending or signo
        return
    _state.stopping = True
    raise Interrupted(signo)


def install_signal_handlers() -> None:
    """SIGINT, SIGTERM and SIGHUP stop the tool once (a signal the tool was started ignoring, as
    `nohup` or a shell's `&` arrange, stays ignored). Main thread only; calling it again is harmless."""
    for signo in SIGNALS:
        if signal.getsignal(signo) is not signal.SIG_IGN:
            signal.signal(signo, _on_signal)


@contextmanager
def held_signals():
    """In the main thread, a signal arriving inside the block is raised when it ends (other threads
    never receive one: Python runs signal handlers in the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _state.held += 1
    try:
        yield
    finally:
        _state.held -= 1
        if not _state.held and _state.pending and not _state.stopping:
            signo, _state.pending = _state.pending, 0
            _state.stopping = True
            raise Interrupted(signo)


def start_process_group(args, **popen_kwargs) -> subprocess.Popen:
    """`subprocess.Popen(args, start_new_session=True, ...)`, registered for `stop_all`."""
    with held_signals(), _state.lock:
        if _state.closed:
            raise RuntimeError("shutting down: no new process is started")
        proc = subprocess.Popen(args, start_new_session=True, **popen_kwargs)
        _state.started[proc.pid] = proc
    return proc


def stop_process_group(proc, grace: float = STOP_GRACE_SECONDS) -> None:
    """Stops a process started by `start_process_group`, with its group. Safe to call twice."""
    if proc is not None:
        _stop([proc], grace)


def stop_all(grace: float = STOP_GRACE_SECONDS) -> None:
    """Stops every registered process still running, all within one grace, and lets nothing new start."""
    with _state.lock:
        _state.closed = True
        procs = list(_state.started.values())
    _stop(procs, grace)


def _stop(procs: list, grace: float) -> None:
    # Only a leader this call sees running (and then reaps) has its group signalled: the group id of
    # a leader reaped earlier may name another process group by now.
    running = [p for p in procs if p.poll() is None]
    for proc in running:
        _signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for proc in running:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait(timeout=grace)
        _signal_group(proc, signal.SIGKILL)  # a member that outlived its leader
    with _state.lock:
        for proc in procs:
            _state.started.pop(proc.pid, None)


def _signal_group(proc, signo: int) -> None:
    try:
        os.killpg(proc.pid, signo)
    except (ProcessLookupError, PermissionError):
        pass


def run_main(main, *args) -> int:
    """Runs a tool's `main(*args)` (its return value is the exit status) so that however it ends, the
    clean-up runs to the end and no process it started is left."""
    install_signal_handlers()
    status = 0
    try:
        status = main(*args) or 0
    except Interrupted as interrupted:
        status = 128 + interrupted.signo
    finally:
        while True:
            try:
                _state.stopping = True  # from here every signal is ignored
                stop_all()
                break
            except Interrupted as interrupted:  # one that arrived before the line above
                status = 128 + interrupted.signo
        # Nothing is left to stop. Ignored, not handled, so a signal during the interpreter's exit
        # (which puts handled signals back to their default) cannot change the exit status.
        for signo in SIGNALS:
            signal.signal(signo, signal.SIG_IGN)
    return status
