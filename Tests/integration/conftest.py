"""Fixtures for the integration tests: the real built executables under the official Lambda
Runtime Interface Emulator, moto with signature checking, and a loopback test identity provider."""
import os
from pathlib import Path

import pytest

from signin_tools.standins import Emulator, IdentityProvider, MotoServer
from signin_tools.standins import process

ROOT = Path(__file__).resolve().parents[2]

BUILD_DIR = Path(os.environ.get("SIGNIN_BIN_DIR", ROOT / ".build" / "debug"))


def pytest_configure(config):
    """SIGTERM and SIGHUP stop the run as Ctrl-C does (fixtures torn down), and a second signal cannot cut
    that short (signin_tools.standins.process; the storm runs here: scripts/storm)."""
    process.install_signal_handlers()


def pytest_unconfigure(config):
    """Whatever a test or an interrupted teardown left running, by pid."""
    process.stop_all()


def executable(name: str) -> str:
    path = BUILD_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `swift build` first (scripts/test does)")
    return str(path)


@pytest.fixture(scope="session")
def moto():
    server = MotoServer(log_path=str(ROOT / ".tmp" / "moto.log"))
    (ROOT / ".tmp").mkdir(exist_ok=True)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def idp():
    provider = IdentityProvider().start()
    yield provider
    provider.stop()


@pytest.fixture(scope="session")
def risc():
    """Google's Cross-Account Protection transmitter: its own keys, JWKS and RISC configuration."""
    from signin_tools.standins.google_risc import RiscTransmitter

    transmitter = RiscTransmitter().start()
    yield transmitter
    transmitter.stop()


@pytest.fixture
def emulator(tmp_path):
    """Factory: emulator(name, env) starts the named executable; all are stopped at teardown."""
    started = []

    def start(name: str, env: dict | None = None, **kw) -> Emulator:
        emu = Emulator(executable(name), env=env, log_path=str(tmp_path / f"{name}-{len(started)}.log"), **kw)
        started.append(emu)
        return emu.start()

    yield start
    for emu in started:
        emu.stop()


@pytest.fixture
def svc(moto, idp, risc, tmp_path):
    """One deployment's functions (started on first use) against the shared moto, IdP and Google's
    security-event transmitter."""
    from service_support import Service

    service = Service(moto, idp, tmp_path, risc)
    yield service
    service.stop()
