import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from .ports import ExitedBeforeListening, free_port, start_on_free_ports, wait_for_port
from .process import start_process_group, stop_process_group


def rie_path() -> str:
    """The Runtime Interface Emulator binary inside the installed aws-sam-cli package."""
    import samcli  # from the project's .venv

    path = Path(samcli.__file__).parent / "local" / "rapid" / "aws-lambda-rie-x86_64"
    if not path.exists():
        raise FileNotFoundError(f"aws-sam-cli has no emulator at {path}")
    return str(path)


class Emulator:
    """One emulator process serving one function executable.

    The emulator passes its whole environment to the bootstrap, so ``env`` is how a test
    configures the function. Logs (the emulator's and the function's) go to ``log_path``.
    """

    INVOKE_PATH = "/2015-03-31/functions/function/invocations"

    def __init__(self, executable: str, env: dict | None = None, log_path: str | None = None, base_env: dict | None = None):
        self.executable = os.path.abspath(executable)
        self.env = dict(base_env if base_env is not None else _minimal_env())
        self.env.update(env or {})
        self.log_path = log_path
        self.port = 0
        self.api_port = 0
        self.proc = None
        self._log = None

    def start(self, timeout: float = 10.0) -> "Emulator":
        self._log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        start_on_free_ports(lambda: self._launch(timeout))
        return self

    def _launch(self, timeout: float) -> None:
        self.port, self.api_port = free_port(), free_port()
        self.proc = start_process_group(
            [rie_path(), "--runtime-interface-emulator-address", f"127.0.0.1:{self.port}",
             "--runtime-api-address", f"127.0.0.1:{self.api_port}", "--log-level", "error", self.executable],
            env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
        )
        try:
            # Both ports: the emulator panics on a taken runtime API port only after it listens on the other.
            wait_for_port(self.port, timeout, self.proc)
            wait_for_port(self.api_port, timeout, self.proc)
        except ExitedBeforeListening:
            stop_process_group(self.proc)  # whatever it may have started
            raise

    def invoke_raw(self, payload: bytes, headers: dict | None = None, timeout: float = 30.0) -> tuple[int, bytes]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{self.INVOKE_PATH}", data=payload, method="POST",
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def invoke(self, event, **kw) -> dict:
        """Invokes with a JSON event and returns the parsed answer (asserting HTTP 200)."""
        status, body = self.invoke_raw(json.dumps(event).encode(), **kw)
        if status != 200:
            raise AssertionError(f"emulator answered HTTP {status}: {body[:300]!r}")
        return json.loads(body)

    def stop(self) -> None:
        stop_process_group(self.proc)
        if self._log not in (None, subprocess.DEVNULL):
            self._log.close()
            self._log = None

    def logs(self) -> str:
        if not self.log_path or not os.path.exists(self.log_path):
            return ""
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _minimal_env() -> dict:
    """What a function sees on Lambda, minus what tests set: PATH and a locale, no proxies."""
    keep = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "LD_LIBRARY_PATH") if k in os.environ}
    keep.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    return keep
