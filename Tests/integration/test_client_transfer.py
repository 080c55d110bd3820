"""Both app clients through an app transfer between Apple developer teams (contract v4), against the
real functions through scripts/serve's Function URL server, the real `authctl apple-transfer` and
the loopback Apple (signin_tools/standins/apple_migration.py): the Swift client (`client-check`,
Tests/ClientCheck) and the Android library (`ClientScenarios`, android/src/test), each step its own
process over a device's session store. Each client keeps its user in their account and reports the
re-keyed Apple identifier the same way (docs/client.md, "The two clients, rule by rule")."""
import json
import subprocess

import pytest

from authctl_support import own_bucket  # noqa: F401 (fixture)
from conftest import BUILD_DIR, ROOT, executable
from signin_tools.serve import FunctionURLServer
from transfer_support import TEAM_B, apple  # noqa: F401 (fixture)

ANDROID_OUT = ROOT / "android" / "build-out"
JSON_JAR = "/usr/share/java/com.android.json.jar"
STEP_TIMEOUT = 180


@pytest.fixture
def server(moto, idp, own_bucket, tmp_path):
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        executable(name)
    bucket = own_bucket.moto.bucket
    env = lambda name: {**moto.function_env(name), **idp.function_env(), "IDENTITY_BUCKET": bucket}  # noqa: E731
    srv = FunctionURLServer(BUILD_DIR, env, tmp_path / "serve-logs", pool_size=1).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def android_classpath() -> str:
    if not (ANDROID_OUT / "test-classes").exists():
        subprocess.run([str(ROOT / "android" / "build"), "--compile"], check=True, timeout=600)
    return ":".join(str(ANDROID_OUT / p) for p in ("test-classes", "classes", "example-classes")) + ":" + JSON_JAR


class Device:
    """One app install: a client and its session store; each step is a process of its own."""

    def __init__(self, client: str, server, classpath: str, store):
        self.client, self.server, self.classpath, self.store = client, server, classpath, store

    def step(self, name: str, token: str | None = None) -> dict:
        urls = self.server.urls()
        where = ["--signin", urls["auth-signin"], "--refresh", urls["auth-refresh"], "--link", urls["auth-link"],
                 "--store", str(self.store)]
        if self.client == "swift":
            args = [executable("client-check"), name, *where, "--apple", token or ""]
        else:
            args = ["java", "-cp", self.classpath, "dev.signinbackend.client.integration.ClientScenarios", name, *where,
                    *(["--token", token] if token else [])]
        done = subprocess.run(args, capture_output=True, text=True, timeout=STEP_TIMEOUT)
        assert done.returncode == 0, f"{self.client} {name}: {done.stdout[-800:]} {done.stderr[-1500:]}"
        out = json.loads(done.stdout.strip().splitlines()[-1])
        assert "error" not in out and "failed" not in out, f"{self.client} {name}: {out}"
        # The two clients name it in their language's style; the value is what is compared.
        return {"isNewUser": out.get("isNewUser"), "account": out["serviceUserID"],
                "apple": out.get("appleUserID", out.get("appleUserId")),
                "stored": out.get("storedAppleUserID", out.get("storedAppleUserId"))}


def test_both_clients_keep_a_transferred_user_in_their_account(server, apple, own_bucket, android_classpath,
                                                              tmp_path, idp):
    migration = apple.migration

    def token(person: str) -> str:
        claims = migration.id_token_claims(person)   # with transfer_sub once the app moved
        extra = {"transfer_sub": claims["transfer_sub"]} if "transfer_sub" in claims else {}
        return idp.mint("apple", idp.apple_claims(claims["sub"], email=claims["email"], private_email=True, **extra))

    seen = {}
    for client in ("swift", "android"):
        devices = {d: Device(client, server, android_classpath, tmp_path / f"{client}-{d}" / "session")
                   for d in ("phone", "tablet", "other")}
        for d in devices.values():
            d.store.parent.mkdir(parents=True)
        mover, stayer = f"{client}-mover", f"{client}-stayer"
        old = {p: migration.user(p) for p in (mover, stayer)}
        phone = devices["phone"].step("signin-user", token(mover))
        tablet = devices["tablet"].step("signin-user", token(mover))
        other = devices["other"].step("signin-user", token(stayer))
        assert phone["isNewUser"] and not tablet["isNewUser"] and phone["account"] == tablet["account"]
        assert phone["apple"] == old[mover] and other["apple"] == old[stayer]
        seen[client] = (devices, mover, stayer, old, phone["account"], other["account"])

    env = own_bucket.env(**apple.function_env())
    prepared = own_bucket.run("apple-transfer", "prepare", "--target-team", TEAM_B, "--yes", "--json", env=env)
    assert prepared.returncode == 0, prepared.stderr[-1500:]
    assert json.loads(prepared.stdout)["done"] == 4
    migration.transfer(TEAM_B)

    outcomes = {}
    for client, (devices, mover, stayer, old, account, stayer_account) in seen.items():
        new = migration.user(mover)
        # Before anyone signs in again, every session keeps refreshing with the old identifier.
        assert devices["phone"].step("refresh-user") == {"isNewUser": None, "account": account, "apple": old[mover],
                                                         "stored": old[mover]}
        # The tablet runs Sign in with Apple again (on iOS because Apple answers `.transferred`):
        # the same account, not new, with the new identifier.
        again = devices["tablet"].step("signin-user", token(mover))
        assert again == {"isNewUser": False, "account": account, "apple": new, "stored": None}
        # The phone's session from before the transfer keeps refreshing, and follows the re-key.
        moved = devices["phone"].step("refresh-user")
        assert moved == {"isNewUser": None, "account": account, "apple": new, "stored": new}
        outcomes[client] = (again["isNewUser"], moved["account"] == account, moved["apple"] == new)

    env = own_bucket.env(**apple.function_env(TEAM_B))   # the recipient team's key
    completed = own_bucket.run("apple-transfer", "complete", "--yes", "--json", env=env)
    assert completed.returncode == 0, completed.stderr[-1500:]
    assert json.loads(completed.stdout)["done"] == 2, "the two users who never signed in again"
    for client, (devices, mover, stayer, old, account, stayer_account) in seen.items():
        later = devices["other"].step("refresh-user")
        new = migration.user(stayer)
        assert later == {"isNewUser": None, "account": stayer_account, "apple": new, "stored": new}, client
    assert outcomes["swift"] == outcomes["android"] == (False, True, True)
