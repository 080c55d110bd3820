"""authctl end to end (issue 20; docs/operations.md): the real executable with the operator
policy's grants against moto, and the real functions under the emulator. Refresh tokens are
secrets: assertions carry their own messages. PYTEST_DONT_REWRITE."""
import json

from authctl_support import operator, versions  # noqa: F401 (fixture)
from service_support import apple_sub, google_sub, ok, refused


def signup(svc, sub=None):
    sub = sub or apple_sub()
    return sub, ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), device="iPhone · test"))


def test_disable_refuses_every_action_and_changes_nothing_then_enable_restores_the_same_sessions(svc, operator):
    sub, data = signup(svc)
    uuid, token = data["user"]["serviceUserID"], data["refreshToken"]
    g = google_sub()
    ok(svc.link(refreshToken=token, provider="google", idToken=svc.idp.google_token(g)))
    done = operator.ok("disable", f"apple:{sub}", "--reason", "abuse report 42", "--yes")
    intent, audit = operator.audits(done)
    assert (intent["phase"], intent["action"], intent["serviceUserID"], intent["reason"]) == (
        "intent", "disable", uuid, "abuse report 42")
    assert (audit["phase"], audit["action"], audit["serviceUserID"], audit["reason"], audit["outcome"],
            audit["result"]) == ("outcome", "disable", uuid, "abuse report 42", "done", "disabled")
    assert audit["operator"]["arn"] == intent["operator"]["arn"] == operator.identity["arn"]
    before = versions(svc)
    refused(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)), "ACCOUNT_DISABLED", "sign-in")
    refused(svc.signin(provider="google", idToken=svc.idp.google_token(g), intent="signin"), "ACCOUNT_DISABLED",
            "sign-in with the linked identity")
    for action in ("refresh", "list", "signout", "signoutOthers"):
        refused(svc.refresh(refreshToken=token, action=action), "ACCOUNT_DISABLED", action)
    refused(svc.link(refreshToken=token, action="unlink", provider="google"), "ACCOUNT_DISABLED", "unlink")
    refused(svc.link(refreshToken=token, provider="google", idToken=svc.idp.google_token(google_sub())),
            "ACCOUNT_DISABLED", "link")
    refused(svc.link(refreshToken=token, action="delete"), "ACCOUNT_DISABLED", "delete")
    assert versions(svc) == before, "a refused action wrote to the bucket"
    shown = operator.json("show", uuid)
    assert shown["disabled"]["reason"] == "abuse report 42" and shown["disabled"]["by"] == operator.identity["arn"]

    operator.ok("enable", uuid, "--yes")
    again = ok(svc.refresh(refreshToken=token))
    assert again["user"]["serviceUserID"] == uuid, "the same session refreshes after enable"
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin"))


def test_dry_run_and_a_missing_yes_change_nothing(svc, operator):
    sub, data = signup(svc)
    before = versions(svc)
    done = operator.run("disable", f"apple:{sub}", "--reason", "x")
    assert done.returncode != 0 and "--yes" in done.stderr, "no terminal and no --yes must refuse"
    done = operator.ok("disable", f"apple:{sub}", "--reason", "x", "--dry-run")
    assert operator.audits(done)[0]["dryRun"] is True
    operator.ok("delete", f"apple:{sub}", "--reason", "x", "--dry-run")
    assert versions(svc) == before
    ok(svc.refresh(refreshToken=data["refreshToken"]))


def test_revoke_one_session_then_all(svc, operator):
    sub, first = signup(svc)
    second = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    uuid = first["user"]["serviceUserID"]
    sessions = [s for s in operator.json("show", uuid)["sessions"] if s["live"]]
    assert len(sessions) == 2
    one = json.loads(operator.ok("sessions", "revoke", uuid, "--session", second_id(second), "--yes", "--json").stdout)
    assert one["signedOut"] == 1
    refused(svc.refresh(refreshToken=second["refreshToken"]), "SESSION_INVALID", "the revoked session")
    token = ok(svc.refresh(refreshToken=first["refreshToken"]))["refreshToken"]
    done = operator.ok("sessions", "revoke", f"apple:{sub}", "--yes", "--reason", "stolen phone")
    assert operator.audits(done)[0]["reason"] == "stolen phone"
    refused(svc.refresh(refreshToken=token), "SESSION_INVALID", "every session after revoke")
    assert not [s for s in operator.json("show", uuid)["sessions"] if s["live"]]


def second_id(data: dict) -> str:
    from service_support import session_id_of
    return session_id_of(data["refreshToken"])


def test_export_holds_what_the_account_holds_and_no_secret(svc, operator, tmp_path):
    sub, data = signup(svc)
    uuid = data["user"]["serviceUserID"]
    out = tmp_path / "export.json"
    done = operator.ok("export", f"apple:{sub}", "--out", str(out), "--with-object-keys", "--reason", "ticket 7")
    assert operator.audits(done)[0]["action"] == "export"
    exported = json.loads(out.read_text())
    profile = svc.read_json(f"users/{uuid}/account/profile.json")
    providers = svc.read_json(f"users/{uuid}/account/providers.json")
    assert exported["profile"] == profile
    assert [(p["type"], p["id"], p["email"]) for p in exported["providers"]] == [
        (p["type"], p["id"], p["email"]) for p in providers["providers"]]
    sid = second_id(data)
    [session] = exported["sessions"]
    assert (session["sessionId"], session["device"]) == (sid, "iPhone · test")
    record = svc.read_json(f"users/{uuid}/account/sessions/{sid}.json")
    text = out.read_text()
    assert record["current"]["hash"] not in text, "a token hash reached the export"
    assert data["refreshToken"] not in text and "linkID" not in text
    assert f"users/{uuid}/account/profile.json" in exported["objectKeys"]
    assert exported["purchases"] == [] and exported["deletion"] is None and "by" not in json.dumps(exported["disabled"])
