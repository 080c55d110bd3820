"""The operator's trail (issue 23, defects 9 and 11; contract v4 "Operator actions"): a change
writes its intent before the first write and its outcome after (done, or failed and the state it
left); `check --repair` writes them for each account it changes, with the operator's reason; an
AUTHCTL_AUDIT_LOG that cannot take a line stops the action before it changes or shows anything.
PYTEST_DONT_REWRITE."""
import json
import os
import stat
import uuid as uuidlib

from authctl_support import operator, own_bucket, versions  # noqa: F401 (fixtures)
from service_support import apple_sub, google_sub, ok, refused
from signin_tools.standins import FaultProxy


def test_check_repair_writes_an_intent_and_an_outcome_for_each_account_it_changes(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    s3 = svc.moto.s3()
    for name in ("auth-signin",):
        svc._default[name] = svc.start(name, IDENTITY_BUCKET=bucket)
    broken = []
    for _ in range(3):
        uuid = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))["user"]["serviceUserID"]
        s3.put_object(Bucket=bucket, Key=f"identities/google/{google_sub()}", Body=uuid.encode(),
                      Metadata={"link-id": uuidlib.uuid4().hex})  # a stale identity file
        broken.append(uuid)
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))  # one account with nothing to repair
    done = op.run("check", "--repair", "--yes", "--reason", "ticket 9", "--json")
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]}"
    lines = op.audits(done)
    intents = [a for a in lines if a["phase"] == "intent"]
    outcomes = [a for a in lines if a["phase"] == "outcome"]
    assert sorted(a["serviceUserID"] for a in intents) == sorted(broken), f"intents {intents}"
    assert sorted(a["serviceUserID"] for a in outcomes) == sorted(broken), f"outcomes {outcomes}"
    for a in intents + outcomes:
        assert (a["action"], a["reason"]) == ("check-repair", "ticket 9"), a
    for a in outcomes:
        assert a["outcome"] == "done" and [f["kind"] for f in a["findings"]] == ["stale-identity-file"], a
        assert all(f["repaired"] for f in a["findings"])
    for uuid in broken:
        first = [i for i, a in enumerate(lines) if a["serviceUserID"] == uuid]
        assert [lines[i]["phase"] for i in first] == ["intent", "outcome"], "the intent comes before the outcome"
    [summary] = [a for a in lines if a["phase"] == "summary"]
    assert (summary["outcome"], summary["found"], summary["repaired"]) == ("done", 3, 3)


def test_a_delete_that_fails_partway_leaves_its_intent_and_the_state_it_left(svc, operator):
    sub = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    uuid = data["user"]["serviceUserID"]
    refuse = lambda r: r.method == "DELETE" and "/identities/" in r.target  # noqa: E731
    with FaultProxy(svc.moto.port, refuse=refuse) as proxy:
        done = operator.run("delete", uuid, "--reason", "Art. 17, ticket 11", "--yes",
                            env=operator.env(AWS_ENDPOINT_URL=proxy.endpoint))
        assert proxy.summary()["faults"] is not None
    assert done.returncode == 1 and "AccessDenied" in done.stderr, f"exit {done.returncode}: {done.stderr[-500:]}"
    intent, outcome = operator.audits(done)
    assert (intent["phase"], intent["action"], intent["serviceUserID"], intent["reason"]) == (
        "intent", "delete", uuid, "Art. 17, ticket 11")
    assert (outcome["phase"], outcome["outcome"], outcome["error"]) == ("outcome", "failed", "AWS AccessDenied"), outcome
    after = outcome["stateAfter"]
    assert after["deleted"] is True and after["deletion"]["requestedAt"] is not None, after
    assert after["deletion"]["mappingsRemoved"] is False and after["liveSessions"] == 0, after
    refused(svc.refresh(refreshToken=data["refreshToken"]), "SESSION_INVALID", "the committed deletion's session")
    again = operator.ok("delete", uuid, "--reason", "Art. 17, ticket 11, retried", "--yes")
    assert [a["outcome"] for a in operator.audits(again) if a["phase"] == "outcome"] == ["done"]
    assert svc.read_object(f"identities/apple/{sub}") is None


def test_an_audit_log_that_cannot_take_the_line_stops_the_action_first(svc, operator, tmp_path):
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))
    uuid = data["user"]["serviceUserID"]
    before = versions(svc)
    nowhere = operator.env(AUTHCTL_AUDIT_LOG=str(tmp_path / "no-such-directory" / "audit.log"))
    done = operator.run("disable", uuid, "--reason", "abuse 11", "--yes", env=nowhere)
    assert done.returncode == 1 and "AUTHCTL_AUDIT_LOG" in done.stderr, f"exit {done.returncode}: {done.stderr[-300:]}"
    assert versions(svc) == before, "the change was made without its trail"
    ok(svc.refresh(refreshToken=data["refreshToken"]))
    shown = operator.run("show", uuid, env=nowhere)
    assert shown.returncode == 1 and shown.stdout == "", "a read was shown without its trail"

    log = tmp_path / "audit.log"
    operator.ok("disable", uuid, "--reason", "abuse 11", "--yes", env=operator.env(AUTHCTL_AUDIT_LOG=str(log)))
    kept = [json.loads(line) for line in log.read_text().splitlines()]
    assert [a["phase"] for a in kept] == ["intent", "outcome"] and stat.S_IMODE(os.stat(log).st_mode) == 0o600
