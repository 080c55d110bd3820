"""The tools stop everything they started whatever signals arrive (signin_tools.standins.process):
a second signal during the clean-up (`timeout` signals the child and then its group; Ctrl-C pressed
twice), a burst of them at every moment of it, or a signal while the tool is still starting. Each
test runs a real tool, records its whole process tree by pid (with each process's start time, so a
reused pid is not mistaken for a survivor), signals it, and checks that no process of the tree is
left. Survivors are killed by pid at the end, so a failing test leaves nothing behind either."""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import BUILD_DIR
from signin_tools.repo import ROOT

WAIT_SECONDS = 120
EXIT_SECONDS = 90
BURST_LIMIT = 5000


def process_table() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, start time in clock ticks, state) for every process readable in /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry)] = (int(fields[1]), fields[19], fields[0])
    return table


def descendants(pid: int) -> set[tuple[int, str]]:
    table = process_table()
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, start, _) in table.items():
            if ppid == parent and (child, start) not in found:
                found.add((child, start))
                frontier.append(child)
    return found


def survivors(processes: set[tuple[int, str]]) -> set[tuple[int, str]]:
    table = process_table()
    return {(pid, start) for pid, start in processes
            if pid in table and table[pid][1] == start and table[pid][2] != "Z"}


def wait_until(condition, what: str, seconds: float = WAIT_SECONDS, tool=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if tool is not None and tool.poll() is not None:
            raise AssertionError(f"the tool exited ({tool.returncode}) before {what}")
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


class Tool:
    """A tool started as its script starts it (`python -m signin_tools.X` from the checkout)."""

    def __init__(self, tmp_path: Path, args: list[str], env: dict | None = None, stdin=subprocess.DEVNULL):
        self.out = open(tmp_path / "tool.out", "wb")
        self.proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env={**os.environ, **(env or {})}, stdin=stdin,
                                     stdout=self.out, stderr=subprocess.STDOUT)
        self.output_path = tmp_path / "tool.out"
        self.seen: set[tuple[int, str]] = set()

    def record(self) -> set[tuple[int, str]]:
        self.seen |= descendants(self.proc.pid)
        return self.seen

    def signal(self, signo: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signo)

    def cleaning_up(self, before: set[tuple[int, str]]):
        """True once a process it had started is gone: its clean-up has begun."""
        return len(survivors(before)) < len(before)

    def wait(self) -> int:
        try:
            return self.proc.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise AssertionError("the tool did not exit after the signals")

    def output(self) -> str:
        self.out.flush()
        return self.output_path.read_text(errors="replace")[-3000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        for pid, _ in survivors(self.seen):  # what a failing tool left: killed by pid
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.out.close()


@pytest.fixture
def tool(tmp_path):
    started = []

    def start(args, **kw) -> Tool:
        started.append(Tool(tmp_path, args, **kw))
        return started[-1]

    yield start
    for t in started:
        t.close()


def serve_with_three_warm_functions(tool, tmp_path) -> Tool:
    """scripts/serve with moto, the stand-ins and one emulator (and its function) per function."""
    url_file = tmp_path / "urls.json"
    serve = tool(["-m", "signin_tools.serve_cli", "--bin-dir", str(BUILD_DIR), "--pool", "1", "--max-seconds", "300",
                  "--url-file", str(url_file)])
    wait_until(url_file.exists, "the URLs", tool=serve.proc)
    for url in json.loads(url_file.read_text()).values():
        request = urllib.request.Request(url, data=b"{}", method="POST", headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=60).read()
        except urllib.error.HTTPError as answer:  # the function's refusal of an empty request
            answer.read()
    started = serve.record()
    assert len(started) >= 7, f"expected moto and three emulators with their functions, found {started}"
    return serve


def assert_nothing_left(t: Tool, status: int, expected_status: int) -> None:
    left = survivors(t.seen)
    assert not left, f"left running after the tool exited: {sorted(left)}\n{t.output()}"
    assert status == expected_status, t.output()


def test_serve_stopped_twice_stops_everything(tool, tmp_path):
    """SIGTERM, then Ctrl-C once its clean-up has begun (main: KeyboardInterrupt inside
    server.stop(), moto and the emulators left running)."""
    serve = serve_with_three_warm_functions(tool, tmp_path)
    started = set(serve.seen)
    serve.signal(signal.SIGTERM)
    wait_until(lambda: serve.cleaning_up(started) or serve.proc.poll() is not None, "the clean-up to begin")
    serve.signal(signal.SIGINT)
    assert_nothing_left(serve, serve.wait(), 0)


def test_serve_under_a_burst_of_signals_during_clean_up_stops_everything(tool, tmp_path):
    serve = serve_with_three_warm_functions(tool, tmp_path)
    started = set(serve.seen)
    serve.signal(signal.SIGTERM)
    wait_until(lambda: serve.cleaning_up(started) or serve.proc.poll() is not None, "the clean-up to begin")
    burst = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    for n in range(BURST_LIMIT):
        if serve.proc.poll() is not None:
            break
        serve.signal(burst[n % len(burst)])
        time.sleep(0.002)
    assert_nothing_left(serve, serve.wait(), 0)


def test_serve_signalled_twice_while_starting_stops_what_it_had_started(tool, tmp_path):
    """The signals land while moto is being set up (main: before its try, so nothing was stopped)."""
    serve = tool(["-m", "signin_tools.serve_cli", "--bin-dir", str(BUILD_DIR), "--max-seconds", "300"])
    wait_until(serve.record, "moto to start", tool=serve.proc)
    serve.record()
    serve.signal(signal.SIGTERM)
    serve.signal(signal.SIGTERM)
    assert_nothing_left(serve, serve.wait(), 128 + signal.SIGTERM)


def test_the_swift_tests_stand_ins_stop_moto_when_signalled_twice(tool):
    """serve_standins (what `swift test` starts): it stops when its stdin closes; SIGTERM (main: the
    default action, moto left running) and a second one now stop it with moto."""
    standins = tool(["-m", "signin_tools.serve_standins", "--moto", "--max-seconds", "300"], stdin=subprocess.PIPE)
    wait_until(lambda: b"moto" in standins.output_path.read_bytes(), "the stand-ins' line", tool=standins.proc)
    started = set(standins.record())
    assert started
    standins.signal(signal.SIGTERM)
    wait_until(lambda: standins.cleaning_up(started) or standins.proc.poll() is not None, "the clean-up to begin")
    standins.signal(signal.SIGTERM)
    assert_nothing_left(standins, standins.wait(), 128 + signal.SIGTERM)


def test_the_storm_stopped_twice_tears_down_and_stops_everything(tool, tmp_path):
    """scripts/storm is pytest: SIGTERM (main: pytest killed, the storm's moto and twelve emulators
    left) now tears the fixtures down as Ctrl-C does, and a second signal cannot cut that short."""
    storm = tool(["-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'storm'}",
                  "Tests/integration/test_storm.py"],
                 env={"STORM_OPS": "20000", "STORM_SECONDS": "300"})
    wait_until(lambda: len(storm.record()) >= 8, "the storm's moto and emulators", tool=storm.proc)
    started = set(storm.seen)
    storm.signal(signal.SIGTERM)
    wait_until(lambda: storm.cleaning_up(started) or storm.proc.poll() is not None, "the clean-up to begin")
    storm.signal(signal.SIGTERM)
    status = storm.wait()
    assert_nothing_left(storm, status, pytest.ExitCode.INTERRUPTED)


# Modules with a `__main__` that start no process: they need no shutdown.
STARTS_NOTHING = {"docs_links", "mint_token", "venvs", "standins.appstore_pki", "standins.grants", "standins.moto_atomic"}


def test_every_tool_runs_through_the_one_shutdown_and_starts_processes_only_through_it():
    """demo, invoke, serve, serve_standins, check_al2023 and every bench driver end through `run_main`;
    no module but process.py calls Popen, so every process is registered for `stop_all`."""
    package = ROOT / "signin_tools"
    tools = []
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package).with_suffix("").parts)
        text = path.read_text()
        if module != "standins.process":
            assert "Popen(" not in text, f"signin_tools/{module} starts a process outside start_process_group"
        if 'if __name__ == "__main__":' in text and module not in STARTS_NOTHING:
            tools.append(module)
            main_block = text.split('if __name__ == "__main__":', 1)[1]
            assert "run_main(main" in main_block, f"signin_tools/{module} does not end through run_main"
    assert {"demo", "invoke", "serve_cli", "serve_standins", "bench.soak", "bench.runtime_roundtrip"} <= set(tools)


def test_a_local_issuer_key_cut_short_by_an_interrupted_run_is_made_again(tmp_path):
    """scripts/mint-token, demo, invoke and serve keep the test issuer's keys in .tmp/local-idp; a run
    stopped while writing one left a truncated PEM that every later command failed to load (main:
    ValueError). Keys are now written whole or not at all, and one that does not load is made again."""
    from signin_tools.standins.local import persistent_idp

    persistent_idp(tmp_path)
    kept = (tmp_path / "apple.pem").read_bytes()
    (tmp_path / "google.pem").write_bytes((tmp_path / "google.pem").read_bytes()[:40])
    idp = persistent_idp(tmp_path)
    assert idp.google_token("sub-1").count(".") == 2
    assert (tmp_path / "apple.pem").read_bytes() == kept, "a key that loads is kept (tokens minted before stay valid)"
    assert not list(tmp_path.glob("*.partial"))
