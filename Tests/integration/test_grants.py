"""The functions run with their role's grants from template.yaml, and a missing grant fails a test.

signin_tools/standins/grants.py derives each function's S3/STS/SSM statements from the template;
the moto stand-in gives each function its own IAM user holding exactly those (widened only where
moto cannot evaluate IAM: `?` runs, conditions, SSM resources). Here: the derivation itself, the
identities the functions get, and the rule at work: a copy of the template with one needed grant
removed makes the function's call a Runtime API error (`AWS.AccessDenied`), as on AWS."""
import json
import uuid as uuidlib

import pytest
from conftest import ROOT
from service_support import apple_sub, ok
from signin_tools.standins import MotoServer, grants

SAMPLE_UUID = "0f8fad5b-d9cb-469f-a165-70867728950e"


def derived(template=None, bucket="b") -> dict:
    resolver = grants.Resolver(template or grants.load_template(), bucket=bucket, parameters=grants.CONFIGURED)
    return {f: grants.function_statements(f, resolver) for f in grants.FUNCTIONS}


def allowed(statements, action, resource) -> bool:
    """IAM's reading of the unwidened statements (`*` any run, `?` one character), conditions aside."""
    from test_template import iam_match

    return any(action in st["Action"] and any(iam_match(r, resource) for r in st["Resource"]) for st in statements)


def test_the_derivation_resolves_every_intrinsic_and_keeps_only_s3_sts_ssm():
    d = derived(bucket="my-bucket")
    for f, statements in d.items():
        text = json.dumps(statements)
        assert "Fn::" not in text and "${" not in text and "Ref" not in text, f"{f}: unresolved intrinsic in {text[:200]}"
        for st in statements:
            assert all(a.split(":")[0] in ("s3", "sts", "ssm") for a in st["Action"]), st
            assert all(r.startswith(("arn:aws:s3:::my-bucket", "arn:aws:iam::", "arn:aws:ssm:")) for r in st["Resource"]), st
    obj = f"arn:aws:s3:::my-bucket/users/{SAMPLE_UUID}/account/profile.json"
    photo = f"arn:aws:s3:::my-bucket/users/{SAMPLE_UUID}/photos/a.jpg"
    assert allowed(d["auth-refresh"], "s3:GetObject", obj) and not allowed(d["auth-refresh"], "s3:GetObject", photo)
    assert allowed(d["auth-signin"], "sts:AssumeRole", "arn:aws:iam::123456789012:role/signin-UserAccessRole")
    assert not any(allowed(d[f], "sts:AssumeRole", "arn:aws:iam::123456789012:role/signin-UserAccessRole")
                   for f in ("auth-link",))
    assert allowed(d["auth-link"], "ssm:GetParameter", "arn:aws:ssm:us-east-1:123456789012:parameter/signin/apple-key")
    # Defect 1 (issue 18): what sign-in does when the account is half-made or deleted.
    assert allowed(d["auth-signin"], "s3:GetObject", f"arn:aws:s3:::my-bucket/deletions/{SAMPLE_UUID}.json")
    assert allowed(d["auth-signin"], "s3:DeleteObjectVersion",
                   f"arn:aws:s3:::my-bucket/users/{SAMPLE_UUID}/account/sessions/0a1b.json")


def test_moto_widening_is_only_broader():
    statements = derived(bucket="b")["auth-link"]
    widened = grants.widened_for_moto(statements)
    for before, after in zip(statements, widened):
        assert after["Action"] == before["Action"] and "Condition" not in after
        for r in before["Resource"]:
            assert r.startswith("arn:aws:ssm:") or any(grants._QUESTION_RUN.sub("*", r) == w for w in after["Resource"])
    assert all("?" not in r for st in widened for r in st["Resource"])


def test_each_function_has_its_own_identity_with_exactly_its_derived_grants(moto):
    keys = {f: moto.function_keys[f][0] for f in grants.FUNCTIONS}
    assert len(set(keys.values()) | {moto.access_key_id}) == 4, "one identity per function, and the tests' own"
    for f in grants.FUNCTIONS:
        assert moto.function_env(f)["AWS_ACCESS_KEY_ID"] == keys[f]
        assert "s3:*" not in json.dumps(moto.policies[f])
    refresh = moto.client("s3", *moto.function_keys["auth-refresh"])
    with pytest.raises(refresh.exceptions.ClientError, match="AccessDenied"):
        refresh.put_object(Bucket=moto.bucket, Key="identities/apple/x", Body=b"x")
    link = moto.client("s3", *moto.function_keys["auth-link"])
    moto.s3().put_object(Bucket=moto.bucket, Key=f"users/{SAMPLE_UUID}/photos/a.jpg", Body=b"x")
    # DeleteObjects is checked per key (moto_iam.py): refresh may not delete a photo, link's purge may.
    assert refresh.delete_objects(Bucket=moto.bucket, Delete={"Objects": [{"Key": f"users/{SAMPLE_UUID}/photos/a.jpg"}]}
                                  )["Errors"][0]["Code"] == "AccessDenied"
    assert link.delete_objects(Bucket=moto.bucket, Delete={"Objects": [{"Key": f"users/{SAMPLE_UUID}/photos/a.jpg"}]}
                               ).get("Errors") is None


def without_grant(template: dict, role: str, sid: str) -> dict:
    """`template` with the statement `sid` of `role`'s policies removed."""
    for policy in template["Resources"][role]["Properties"]["Policies"]:
        if "PolicyDocument" in policy:
            statements = policy["PolicyDocument"]["Statement"]
            kept = [st for st in statements if st.get("Sid") != sid]
            if len(kept) < len(statements):
                policy["PolicyDocument"]["Statement"] = kept
                return template
    raise AssertionError(f"{role} has no statement {sid}")


def half_made_signin(moto, idp, emulator) -> tuple[dict, str]:
    """A sign-up cut short after its identity file: the sign-in completes the account (it first
    reads deletions/<uuid>.json: completing a deleted account would bring it back)."""
    sub, uuid = apple_sub(), str(uuidlib.uuid4())
    moto.s3().put_object(Bucket=moto.bucket, Key=f"identities/apple/{sub}", Body=uuid.encode(), ContentType="text/plain")
    fn = emulator("auth-signin", {**moto.function_env("auth-signin"), **idp.function_env(), "AWS_LAMBDA_FUNCTION_NAME": "auth-signin"})
    return fn.invoke({"provider": "apple", "idToken": idp.apple_token(sub), "intent": "signin"}), uuid


def test_a_grant_removed_from_the_template_fails_the_call_as_a_runtime_api_error(idp, emulator, tmp_path):
    from samcli.yamlhelper import yaml_dump

    mutated = tmp_path / "template.yaml"
    mutated.write_text(yaml_dump(without_grant(grants.load_template(), "AuthSigninRole", "DeletionRecordsRead")))
    with MotoServer(log_path=str(tmp_path / "moto.log"), template=mutated) as broken:
        answer, _ = half_made_signin(broken, idp, emulator)
    assert answer.get("errorType") == "AWS.AccessDenied", f"expected a Runtime API AccessDenied, got {answer}"
    with MotoServer(log_path=str(tmp_path / "moto-ok.log")) as whole:
        answer, uuid = half_made_signin(whole, idp, emulator)
        assert ok(answer)["user"]["serviceUserID"] == uuid


def test_grants_module_runs_as_a_script():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "signin_tools.standins.grants"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert set(json.loads(out)) == set(grants.FUNCTIONS)


def test_signin_meeting_a_purged_account_leaves_nothing_under_its_prefix(svc):
    """Defect 1 (issue 18): an identity file that outlived its account's deletion (a link racing
    the purge leaves one). The sign-in reads the deletion record, removes the stale file, and
    removes every version of the session record it wrote in the same round, with auth-signin's
    own grants: at a07d785 the role could not read deletions/ (Runtime API AWS.AccessDenied) nor
    delete by version (a session record version stayed under the purged prefix)."""
    from test_deletion import versions_under

    sub = apple_sub()
    data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    uuid = data["user"]["serviceUserID"]
    assert ok(svc.link(refreshToken=data["refreshToken"], action="delete"))["purge"] == "complete"
    assert versions_under(svc, f"users/{uuid}/") == []
    svc.moto.s3().put_object(Bucket=svc.moto.bucket, Key=f"identities/apple/{sub}", Body=uuid.encode(), ContentType="text/plain")
    answer = svc.signin(provider="apple", idToken=svc.idp.apple_token(sub), intent="signin")
    assert answer.get("success") is False and answer["error"]["code"] == "ACCOUNT_NOT_FOUND", answer
    assert versions_under(svc, f"users/{uuid}/") == [], "the sign-in left its session record under the purged prefix"
    assert svc.read_object(f"identities/apple/{sub}") is None, "the stale identity file survived"


def test_the_simulations_grant_table_is_the_derivation_from_the_template():
    """The simulated S3 refuses what each function's role would not allow, by a Swift table
    (SimulatedGrants+Table.swift); it must say exactly what the template says."""
    import re

    text = (ROOT / "Tests" / "AccountSimulationTests" / "SimulatedGrants+Table.swift").read_text()
    start = text.index("\n", text.index("// BEGIN GENERATED")) + 1
    block = text[start:text.index("// END GENERATED")]

    def norm(s: str) -> str:   # swift format's layout aside
        return re.sub(r",([\])])", r"\1", re.sub(r"\s+", "", s))

    assert norm(block) == norm(grants.swift_table()), \
        "SimulatedGrants+Table.swift is stale: regenerate with .venv/bin/python -m signin_tools.standins.grants --swift"
