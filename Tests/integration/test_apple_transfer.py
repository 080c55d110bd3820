"""The app moves to another Apple developer team (contract v4), end to end: the real functions
under the emulator and `authctl apple-transfer` against moto with their template grants, and the
loopback Apple (signin_tools/standins/apple_migration.py) checking every client secret, token,
target and transfer_sub as Apple does. Each test has a bucket of its own (prepare walks every
Apple identity of the bucket). PYTEST_DONT_REWRITE."""
import json
import os
import pty
import select
import signal
import subprocess
import time

import pytest

from authctl_support import own_bucket, versions  # noqa: F401 (fixtures)
from conftest import executable
from service_support import code, ok
from signin_tools.standins import FaultProxy
from signin_tools.standins.apple_migration import transfer_sub_for
from transfer_support import TEAM_B, TEAM_C, apple  # noqa: F401 (fixture)


class App:
    """The app's users on one deployment (its own bucket), and its operator."""

    def __init__(self, svc, op, apple):
        self.svc, self.op, self.apple = svc, op, apple
        self.bucket = op.moto.bucket
        for name in ("auth-signin", "auth-refresh", "auth-link"):
            svc._default[name] = svc.start(name, IDENTITY_BUCKET=self.bucket)

    def token(self, person: str, transfer: bool = True) -> str:
        """An ID token of the app's current team for `person` (with transfer_sub while Apple sends it)."""
        claims = self.apple.migration.id_token_claims(person)
        extra = {"transfer_sub": claims["transfer_sub"]} if transfer and "transfer_sub" in claims else {}
        return self.svc.idp.mint("apple", self.svc.idp.apple_claims(claims["sub"], email=claims["email"],
                                                                      private_email=True, **extra))

    def signin(self, person: str, intent: str = "auto", **kw) -> dict:
        return self.svc.signin(provider="apple", idToken=self.token(person, **kw), intent=intent)

    def authctl(self, *args: str, team: str | None = None, **env):
        return self.op.run("apple-transfer", *args, env=self.op.env(**{**self.apple.function_env(team), **env}))

    def key(self, key: str):
        return self.svc.read_object(key, bucket=self.bucket)

    def keys(self, prefix: str) -> list[str]:
        pages = self.svc.moto.s3().get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        return [o["Key"] for page in pages for o in page.get("Contents", [])]

    def photo(self, data: dict, name: str, body: bytes | None = None) -> bytes:
        c = data["credentials"]
        s3 = self.svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])
        key = f"{data['storage']['prefix']}photos/{name}"
        if body is not None:
            s3.put_object(Bucket=self.bucket, Key=key, Body=body)
        return s3.get_object(Bucket=self.bucket, Key=key)["Body"].read()


@pytest.fixture
def app(svc, own_bucket, apple):
    return App(svc, own_bucket, apple)


def report(done) -> dict:
    assert done.returncode == 0, f"authctl exited {done.returncode}: {done.stderr[-1500:]}"
    return json.loads(done.stdout)


def test_a_transfer_end_to_end_keeps_each_user_in_their_account(app, tmp_path):
    apple, svc = app.apple, app.svc
    subs = {p: apple.migration.user(p) for p in ("ada", "bob", "cyd")}
    ada = ok(app.signin("ada"))
    uuid = ada["user"]["serviceUserID"]
    assert app.photo(ada, "beach.jpg", b"jpeg-bytes") == b"jpeg-bytes"
    ada2 = ok(app.signin("ada"))                     # a second device, before the transfer
    bob = ok(app.signin("bob"))["user"]["serviceUserID"]
    ok(app.signin("cyd"))
    apple.migration.refuse("cyd")                   # cyd revoked the app: Apple answers invalid_request

    dry = report(app.authctl("prepare", "--target-team", TEAM_B, "--dry-run", "--json"))
    assert dry["run"]["walked"] == 3 and app.keys("identities/apple-transfer/") == [], "a dry run writes nothing"
    assert apple.migration.counts["transfer_sub"] == 0

    key_file = tmp_path / "AuthKey_A.p8"
    key_file.write_text(apple.private_key_pem())
    done = app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--reason", "transfer ticket 31", "--json",
                       "--key-file", str(key_file), APPLE_PRIVATE_KEY=None)
    prepared = report(done)
    assert (prepared["done"], prepared["failed"], prepared["finished"]) == (2, 1, True), prepared
    assert prepared["run"]["failures"] == [{"who": f"apple:{subs['cyd']}", "reason": "invalid_request"}]
    assert apple.migration.counts["client_credentials"] == 1, "one access token for the whole run"
    intent, outcome = [a for a in app.op.audits(done) if a["phase"] in ("intent", "outcome")]
    assert (intent["action"], intent["targetTeam"], intent["reason"]) == ("apple-transfer-prepare", TEAM_B,
                                                                          "transfer ticket 31")
    assert (outcome["outcome"], outcome["done"], outcome["failed"]) == ("done", 2, 1)
    assert sorted(app.keys("identities/apple-transfer/")) == sorted(
        f"identities/apple-transfer/{transfer_sub_for(TEAM_B, p)}" for p in ("ada", "bob"))
    assert json.loads(app.key(f"operator/apple-transfer/{TEAM_B}.json")["body"])["finished"] is True
    # Right before the transfer, a new pass (as the operator reads it): only cyd is asked again.
    again = app.authctl("prepare", "--target-team", TEAM_B, "--yes")
    assert again.returncode == 0, again.stderr[-1500:]
    assert "walked 3: 0 done, 2 already done, 0 skipped, 1 could not be handled" in again.stdout, again.stdout
    assert "Could not be handled (invalid_request usually means the user revoked" in again.stdout
    assert [line.split() for line in again.stdout.splitlines() if subs["cyd"] in line] == [
        [f"apple:{subs['cyd']}", "invalid_request"]], again.stdout
    assert apple.migration.counts["transfer_sub"] == 2

    apple.migration.transfer(TEAM_B)
    moved = ok(app.signin("ada", intent="signup"))  # whatever the intent: the user's account
    assert moved["user"]["serviceUserID"] == uuid and moved["isNewUser"] is False
    [link] = moved["user"]["providers"]
    assert link["id"] == apple.migration.user("ada") != subs["ada"]
    assert moved["user"]["email"] == app.apple.migration.id_token_claims("ada")["email"]
    assert app.photo(moved, "beach.jpg") == b"jpeg-bytes", "the photos are where they were"
    # v5: the former sub's file stays, naming the same account (an old install still signs in there).
    assert app.key(f"identities/apple/{subs['ada']}")["body"].decode() == uuid
    assert f'"operation":"rekey","serviceUserID":"{uuid}"' in svc.logs(), "the re-key's audit line"
    assert app.key(f"identities/apple-transfer/{transfer_sub_for(TEAM_B, 'ada')}") is None
    # Sessions signed in before the transfer keep refreshing, and list the new one.
    refreshed = ok(svc.refresh(refreshToken=ada2["refreshToken"]))
    sessions = ok(svc.refresh(refreshToken=refreshed["refreshToken"], action="list"))["sessions"]
    assert len(sessions) == 3
    ok(svc.refresh(refreshToken=ada["refreshToken"]))
    again = ok(app.signin("ada"))
    assert again["user"]["serviceUserID"] == uuid and again["isNewUser"] is False

    # bob never signs in: complete, with the recipient team's key from SSM, re-keys him.
    svc.moto.put_secure_parameter("/signin/apple-key-b", apple.migration.teams[TEAM_B].private_key_pem())
    completed = report(app.authctl("complete", "--yes", "--json", "--key-parameter", "/signin/apple-key-b",
                                   team=TEAM_B, APPLE_PRIVATE_KEY=None))
    assert (completed["done"], completed["failed"], completed["finished"]) == (1, 0, True), completed
    assert app.keys("identities/apple-transfer/") == []
    apple.migration.transferred_at -= 61 * 86400   # after the window: tokens carry no transfer_sub
    later = ok(app.signin("bob"))
    assert later["user"]["serviceUserID"] == bob and later["isNewUser"] is False
    assert report(app.op.run("check", "--json"))["found"] == 0


def test_a_transfer_sub_for_another_team_is_refused(app):
    apple = app.apple
    uuid = ok(app.signin("dan"))["user"]["serviceUserID"]
    prepared = report(app.authctl("prepare", "--target-team", TEAM_C, "--yes", "--json"))   # the wrong team
    assert prepared["done"] == 1
    apple.migration.transfer(TEAM_B)
    before = versions(app.op)
    # Team B's key cannot exchange what was made for team C: skipped here, refused by Apple too.
    completed = report(app.authctl("complete", "--yes", "--json", team=TEAM_B))
    assert completed["done"] == 0 and completed["run"]["skipped"] == {"prepared for another team": 1}
    assert apple.migration.counts["exchange"] == 0 and versions(app.op) == before
    wrong = app.authctl("complete", "--yes", "--json", team=TEAM_C)   # team C's key: the app is not C's
    assert wrong.returncode == 0 and json.loads(wrong.stdout)["run"]["failed"] == {"invalid_request": 1}
    # The user's team-B token carries team B's transfer_sub, which no file names: a new account.
    moved = ok(app.signin("dan"))
    assert moved["isNewUser"] is True and moved["user"]["serviceUserID"] != uuid


def test_two_devices_racing_end_with_one_rekeyed_identity(app):
    apple, svc = app.apple, app.svc
    old = apple.migration.user("eve")
    first = ok(app.signin("eve"))
    report(app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json"))
    apple.migration.transfer(TEAM_B)
    event = {"provider": "apple", "idToken": app.token("eve"), "intent": "auto"}
    answers = svc.parallel("auth-signin", [event, event, event], IDENTITY_BUCKET=app.bucket)
    assert {ok(a)["user"]["serviceUserID"] for a in answers} == {first["user"]["serviceUserID"]}
    assert all(ok(a)["isNewUser"] is False for a in answers)
    new = apple.migration.user("eve")
    assert app.key(f"identities/apple/{new}")["body"].decode() == first["user"]["serviceUserID"]
    assert sorted(app.keys("identities/apple/")) == sorted([f"identities/apple/{new}", f"identities/apple/{old}"]), \
        "a second identity (v5 keeps the former sub's file)"
    assert app.key(f"identities/apple/{old}")["body"].decode() == first["user"]["serviceUserID"]
    assert app.keys("users/") and len({k.split("/")[1] for k in app.keys("users/")}) == 1, "one account"
    assert report(app.op.run("check", "--json"))["found"] == 0


def test_a_crash_between_the_rekeys_writes_is_repaired_by_the_next_signin_or_by_check(app):
    apple, svc = app.apple, app.svc
    people = ("fay", "gus")
    accounts = {p: ok(app.signin(p)) for p in people}
    report(app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json"))
    apple.migration.transfer(TEAM_B)
    # The re-key's commit (providers.json) is refused after its new identity file was written: the
    # function stops there, as a crash would.
    refuse = lambda r: r.method == "PUT" and r.target.endswith("/account/providers.json")  # noqa: E731
    with FaultProxy(svc.moto.port, refuse=refuse) as proxy:
        cut = svc.start("auth-signin", IDENTITY_BUCKET=app.bucket, AWS_ENDPOINT_URL=proxy.endpoint)
        for p in people:
            answer = cut.invoke({"provider": "apple", "idToken": app.token(p)})
            assert answer.get("success") is not True, answer
    for p in people:
        new = apple.migration.user(p)
        written = app.key(f"identities/apple/{new}")
        assert written["metadata"].get("transfer-sub") == transfer_sub_for(TEAM_B, p), "the new file is there"
    found = app.op.run("check", "--json")
    assert found.returncode == 3 and sorted(f["kind"] for f in json.loads(found.stdout)["findings"]) == [
        "unfinished-rekey", "unfinished-rekey"]
    # fay signs in again: her sign-in finishes the re-key.
    fay = ok(app.signin("fay"))
    assert fay["user"]["serviceUserID"] == accounts["fay"]["user"]["serviceUserID"] and not fay["isNewUser"]
    # gus does not: check --repair finishes his, as his sign-in would have.
    repaired = report(app.op.run("check", "--repair", "--yes", "--reason", "ticket 40", "--json"))
    assert [f["kind"] for f in repaired["findings"]] == ["unfinished-rekey"] and repaired["repaired"] == 1
    assert report(app.op.run("check", "--json"))["found"] == 0
    for p in people:
        uuid = accounts[p]["user"]["serviceUserID"]
        providers = json.loads(app.key(f"users/{uuid}/account/providers.json")["body"])
        assert providers["providers"][0]["id"] == apple.migration.user(p)
        ok(svc.refresh(refreshToken=accounts[p]["refreshToken"]))   # the old session follows


def test_prepare_continues_where_it_stopped_within_apples_limits(app):
    apple = app.apple
    for n in range(7):
        ok(app.signin(f"user{n}"))
    stopped = app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json", "--limit", "3", "--batch", "2")
    assert stopped.returncode == 4, stopped.stderr[-500:]
    first = json.loads(stopped.stdout)
    assert first["finished"] is False and first["run"]["walked"] <= 4
    apple.migration.throttle_next(3, retry_after=1)
    tokens = apple.migration.counts["client_credentials"]
    apple.migration.expire_tokens_at(apple.migration.counts["usermigrationinfo"] + 6)   # the hour ends mid-run
    resumed = report(app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json", "--batch", "2"))
    assert resumed["finished"] is True and resumed["run"]["resumedAfter"] is not None
    assert resumed["throttled"] >= 1 and resumed["pass"]["done"] == 7
    assert apple.migration.counts["client_credentials"] == tokens + 2, "a new token when Apple said invalid_grant"
    assert apple.migration.counts["transfer_sub"] == 7, "nobody asked twice"
    assert len(app.keys("identities/apple-transfer/")) == 7


def read_terminal(fd: int) -> bytes:
    """What a process wrote to the terminal `fd` is the other side of (bounded)."""
    out = b""
    for _ in range(1000):
        if not select.select([fd], [], [], 0.2)[0]:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:   # EIO: the other side is closed
            break
        if not chunk:
            break
        out += chunk
    return out


def test_prepare_killed_midway_shows_progress_and_the_next_run_continues(app):
    apple = app.apple
    people = [f"kim{n}" for n in range(16)]
    for p in people:
        ok(app.signin(p))
    s3 = app.svc.moto.s3()
    progress_key = f"operator/apple-transfer/{TEAM_B}.json"

    def saved_after() -> str | None:
        try:
            return json.loads(s3.get_object(Bucket=app.bucket, Key=progress_key)["Body"].read())["after"]
        except s3.exceptions.NoSuchKey:
            return None

    # A slow pace (3 requests a second, 2 users a batch: about 5 s for all) so that the kill lands
    # midway, once the run has saved its place; stderr is a terminal, where prepare draws its
    # progress line.
    master, slave = pty.openpty()
    env = app.op.env(**app.apple.function_env())
    proc = subprocess.Popen([executable("authctl"), "apple-transfer", "prepare", "--target-team", TEAM_B, "--yes",
                             "--rate", "3", "--batch", "2"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave, start_new_session=True)
    os.close(slave)
    try:
        deadline = time.monotonic() + 120
        while saved_after() is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "prepare finished before the kill"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        terminal = read_terminal(master).decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        os.close(master)
    assert "\r\x1b[Kwalked " in terminal and " · Apple " in terminal, terminal[-500:]
    lines = [x for x in terminal.split("\r\x1b[K") if x.startswith("walked ")]
    done = [int(x.split(" · ")[1].split()[1]) for x in lines]
    assert done == sorted(done) and done[-1] >= 2, f"the progress line counts up: {lines}"
    marker = json.loads(app.key(progress_key)["body"])
    assert marker["finished"] is False and marker["after"], marker
    assert apple.migration.counts["transfer_sub"] < len(people), "killed midway"

    resumed = report(app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json", "--batch", "2"))
    assert resumed["finished"] is True and resumed["run"]["resumedAfter"] == marker["after"], resumed
    assert resumed["run"]["walked"] < len(people), "the second run starts where the first stopped"
    # Only users answered after the killed run's last save can be asked again (about a second's work).
    assert len(people) <= apple.migration.counts["transfer_sub"] <= len(people) + 6
    assert sorted(app.keys("identities/apple-transfer/")) == sorted(
        f"identities/apple-transfer/{transfer_sub_for(TEAM_B, p)}" for p in people)
    assert report(app.op.run("check", "--json"))["found"] == 0


def test_deleting_an_account_removes_its_transfer_file(app):
    data = ok(app.signin("hal"))
    report(app.authctl("prepare", "--target-team", TEAM_B, "--yes", "--json"))
    assert len(app.keys("identities/apple-transfer/")) == 1
    answer = ok(app.svc.link(refreshToken=data["refreshToken"], action="delete"))
    assert answer["deleted"] is True and app.keys("identities/apple-transfer/") == []
    app.apple.migration.transfer(TEAM_B)
    assert code(app.signin("hal", intent="signin")) == "ACCOUNT_NOT_FOUND"
