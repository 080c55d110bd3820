"""authctl acts on what exists (issue 23, defects 6 and 7; contract v4 "Operator actions"): a
well-formed name that names no account is "not found" for every command, with the status of an
unknown identity, and changes nothing; an unknown or malformed session id is refused, never
"0 session(s) signed out". The real executable with the operator policy's grants against moto.
PYTEST_DONT_REWRITE."""
import uuid as uuidlib

from authctl_support import operator, versions  # noqa: F401 (fixture)
from service_support import apple_sub, ok

NOT_FOUND = 2


def test_a_uuid_that_names_no_account_is_not_found_for_every_command(svc, operator, tmp_path):
    nobody = str(uuidlib.uuid4())
    unknown = operator.run("find", f"apple:{apple_sub()}")
    assert unknown.returncode != 0, f"an unknown identity exits 0: {unknown.stdout}"
    before = versions(svc)
    commands = [("find",), ("show",), ("export", "--out", str(tmp_path / "x.json")), ("disable", "--reason", "x", "--dry-run"),
                ("enable", "--dry-run"), ("delete", "--reason", "x", "--dry-run"), ("sessions", "revoke", "--yes"),
                ("disable", "--reason", "x", "--yes"), ("delete", "--reason", "x", "--yes")]
    for command in commands:
        args = [command[0], nobody, *command[1:]] if command[0] != "sessions" else ["sessions", "revoke", nobody, "--yes"]
        done = operator.run(*args)
        assert done.returncode == unknown.returncode, f"authctl {' '.join(command)} <unknown uuid> exited {done.returncode}"
        assert done.stdout == "" and "no account maps to" in done.stderr, f"{command}: {done.stdout!r} {done.stderr[-300:]}"
        [audit] = operator.audits(done)
        assert (audit["phase"], audit["outcome"], audit["serviceUserID"]) == ("read", "not-found", None), audit
    assert not (tmp_path / "x.json").exists(), "an export of nothing was written"
    assert unknown.returncode == NOT_FOUND, f"not found is exit {NOT_FOUND} (docs/operations.md), got {unknown.returncode}"
    assert versions(svc) == before, "a command about an account that does not exist wrote to the bucket"


def test_an_identity_file_naming_an_account_that_holds_nothing_is_not_found(svc, operator):
    sub, ghost = apple_sub(), str(uuidlib.uuid4())
    svc.moto.s3().put_object(Bucket=svc.moto.bucket, Key=f"identities/apple/{sub}", Body=ghost.encode(),
                             Metadata={"link-id": uuidlib.uuid4().hex})
    done = operator.run("show", f"apple:{sub}")
    assert done.returncode != 0 and done.stdout == "", f"show exited {done.returncode}: {done.stdout[:300]}"
    assert done.returncode == NOT_FOUND and ghost in done.stderr and "authctl check" in done.stderr, done.stderr[-300:]


def test_an_unknown_or_malformed_session_id_is_refused(svc, operator):
    sub = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    uuid = data["user"]["serviceUserID"]
    before = versions(svc)
    done = operator.run("sessions", "revoke", uuid, "--session", uuidlib.uuid4().hex, "--yes")
    assert done.returncode == NOT_FOUND, f"an unknown session id exited {done.returncode}: {done.stdout}"
    assert "signed out" not in done.stdout and "no session" in done.stderr
    for bad in ("not-a-session", "ABCDEF0123456789ABCDEF0123456789", "../x"):
        done = operator.run("sessions", "revoke", uuid, "--session", bad, "--yes")
        assert done.returncode == 64 and "signed out" not in done.stdout, f"{bad}: exited {done.returncode}"
    assert versions(svc) == before
    ok(svc.refresh(refreshToken=data["refreshToken"]))
