"""A bounded pool of emulators of one function: one emulator serves one invocation at a time (two
at once make it panic), so concurrent requests take an idle one, start another while below the
bound (Lambda scaling out, a cold start), or wait, bounded."""
import threading
import time
from pathlib import Path

from .rie import Emulator


class EmulatorPool:
    """Idle emulators of one function; at most `limit` at once; `take` waits at most `wait` seconds."""

    def __init__(self, executable: str, env: dict, log_dir: Path, limit: int):
        self.executable, self.env, self.log_dir, self.limit = executable, env, log_dir, limit
        self.idle: list[Emulator] = []
        self.all: list[Emulator] = []
        self.cond = threading.Condition()

    def take(self, wait: float = 60.0) -> Emulator:
        deadline = time.monotonic() + wait
        with self.cond:
            while not self.idle and len(self.all) >= self.limit:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no emulator free")
                self.cond.wait(left)
            if self.idle:
                return self.idle.pop()
            name = Path(self.executable).name
            emu = Emulator(self.executable, env=self.env, log_path=str(self.log_dir / f"{name}-{len(self.all)}.log"))
            self.all.append(emu)
        try:
            return emu.start()
        except Exception:
            with self.cond:
                self.all.remove(emu)
                self.cond.notify()
            raise

    def give_back(self, emu: Emulator) -> None:
        with self.cond:
            self.idle.append(emu)
            self.cond.notify()

    def stop(self) -> None:
        with self.cond:
            emus, self.all, self.idle = list(self.all), [], []
        for emu in emus:
            emu.stop()
