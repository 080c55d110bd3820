"""The whole service on local stand-ins: moto (S3+STS, signatures checked), the test identity
provider (keys kept under .tmp/local-idp so minted tokens stay valid between commands), and the
three functions, each under its own official Lambda emulator with the contract's configuration."""
import os
from pathlib import Path

from ..repo import ROOT
from .apple_auth import AppleAuthServer
from .appstore_pki import AppStorePKI
from .idp import IdentityProvider, SigningKey
from .motoserver import MotoServer
from .rie import Emulator

FUNCTIONS = ("auth-signin", "auth-refresh", "auth-link")
# auth-link through the alias the schedule invokes (template.yaml, AuthLinkScheduledAlias): the
# emulator builds the invoked function ARN from AWS_LAMBDA_FUNCTION_NAME, so this name gives
# `arn:aws:lambda:...:function:auth-link:scheduled`, as EventBridge's invocation carries.
SCHEDULED = "auth-link:scheduled"


def is_scheduled(event) -> bool:
    return isinstance(event, dict) and event.get("source") == "aws.events" and event.get("detail-type") == "Scheduled Event"


def persistent_idp(key_dir: Path = ROOT / ".tmp" / "local-idp") -> IdentityProvider:
    """A test IdP whose keys are generated once and kept (git-ignored) for scripts/mint-token. A key
    is written whole or not at all (a run interrupted while writing it cannot leave a truncated file
    that every later command fails to read); one that does not load is made again."""
    key_dir.mkdir(parents=True, exist_ok=True)
    keys = {}
    for provider in ("apple", "google", "firebase"):
        pem = key_dir / f"{provider}.pem"
        kid = f"{provider}-local-1"
        try:
            keys[provider] = SigningKey.from_pem(kid, pem.read_bytes())
        except (OSError, ValueError):
            keys[provider] = SigningKey(kid)
            partial = pem.with_suffix(".partial")
            partial.write_bytes(keys[provider].pem())
            os.chmod(partial, 0o600)
            partial.replace(pem)
    return IdentityProvider(apple_key=keys["apple"], google_key=keys["google"], firebase_key=keys["firebase"])


class LocalDeployment:
    def __init__(self, bin_dir: Path, log_dir: Path = ROOT / ".tmp" / "logs", extra_env: dict | None = None, functions=FUNCTIONS):
        self.bin_dir = Path(bin_dir)
        self.log_dir = Path(log_dir)
        self.extra_env = extra_env or {}
        self.functions = functions
        self.moto = MotoServer(log_path=str(self.log_dir / "moto.log"))
        self.idp = persistent_idp()
        # Sign in with Apple's /auth/token and /auth/revoke, so that deleting an account revokes.
        self.apple = AppleAuthServer(self.idp)
        # App Store signed data from a test PKI shaped like Apple's; its root replaces Apple's.
        self.store_pki = AppStorePKI()
        self.emulators: dict[str, Emulator] = {}

    def env(self, function: str) -> dict:
        """`function`'s configuration, with its own identity (its role's grants, derived from
        template.yaml) in moto."""
        env = {**self.moto.function_env(function), **self.idp.function_env(), **self.apple.function_env(),
               **self.store_pki.function_env(), "AWS_LAMBDA_LOG_LEVEL": "INFO"}
        env.update(self.extra_env)
        return env

    def start(self) -> "LocalDeployment":
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.moto.start()
        self.idp.start()
        self.apple.start()
        for name in (*self.functions, *((SCHEDULED,) if "auth-link" in self.functions else ())):
            base = name.split(":")[0]
            emu = Emulator(str(self.bin_dir / base), env={**self.env(base), "AWS_LAMBDA_FUNCTION_NAME": name},
                           log_path=str(self.log_dir / f"{name.replace(':', '-')}.log"))
            self.emulators[name] = emu  # before it starts, so that stop() finds it whenever start() is cut short
            emu.start()
        return self

    def invoke(self, function: str, event) -> dict:
        """Invokes `function`; a scheduled event for auth-link goes the schedule's way (its alias)."""
        if function == "auth-link" and is_scheduled(event):
            function = SCHEDULED
        return self.emulators[function].invoke(event)

    def stop(self) -> None:
        for emu in self.emulators.values():
            emu.stop()
        self.apple.stop()
        self.idp.stop()
        self.moto.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
