"""authctl delete (the app's deletion, run by an operator) and check [--repair], end to end with
the operator policy's grants (issue 20). PYTEST_DONT_REWRITE."""
import json
import time
import uuid as uuidlib

from authctl_support import operator, own_bucket  # noqa: F401 (fixtures)
from service_support import apple_sub, google_sub, ok, refused


def photos(svc, data: dict) -> None:
    c = data["credentials"]
    s3 = svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])
    prefix = data["storage"]["prefix"]
    for i in range(3):
        s3.put_object(Bucket=data["storage"]["bucket"], Key=f"{prefix}photos/img{i}.jpg", Body=b"v1")
    s3.put_object(Bucket=data["storage"]["bucket"], Key=f"{prefix}photos/img0.jpg", Body=b"v2")


def state_after_delete(svc, uuid: str, sub: str) -> dict:
    s3 = svc.moto.s3()
    left = s3.list_object_versions(Bucket=svc.moto.bucket, Prefix=f"users/{uuid}/")
    record = svc.read_json(f"deletions/{uuid}.json")
    shape = {k: v for k, v in record.items() if not k.endswith("At") and k != "serviceUserID"}
    return {"versions": len(left.get("Versions", [])) + len(left.get("DeleteMarkers", [])),
            "identity": svc.read_object(f"identities/apple/{sub}"), "record": shape,
            "times": sorted(k for k, v in record.items() if k.endswith("At") and v is not None)}


def test_operator_delete_leaves_the_same_state_as_the_apps_delete(svc, operator):
    subs, accounts = [apple_sub(), apple_sub()], []
    for sub in subs:
        data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
        photos(svc, data)
        accounts.append(data)
    app_uuid, op_uuid = (a["user"]["serviceUserID"] for a in accounts)
    answer = ok(svc.link(refreshToken=accounts[0]["refreshToken"], action="delete"))
    done = operator.ok("delete", f"apple:{subs[1]}", "--reason", "GDPR Art. 17 request 9", "--yes", "--json")
    said = json.loads(done.stdout)
    assert (said["purge"], said["appleTokensRevoked"]) == (answer["purge"], False), f"no Apple code: not revoked {said} {answer} {state_after_delete(svc, op_uuid, subs[1])}"
    intent, audit = operator.audits(done)
    assert (intent["phase"], intent["action"], intent["serviceUserID"]) == ("intent", "delete", op_uuid)
    assert (audit["phase"], audit["action"], audit["serviceUserID"], audit["outcome"], audit["purge"]) == (
        "outcome", "delete", op_uuid, "done", said["purge"])
    app, op = state_after_delete(svc, app_uuid, subs[0]), state_after_delete(svc, op_uuid, subs[1])
    assert app == op, f"app delete {app} vs operator delete {op}"
    assert op["versions"] == 0 and op["identity"] is None
    refused(svc.refresh(refreshToken=accounts[1]["refreshToken"]), "SESSION_INVALID", "a deleted account's session")
    again = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(subs[1])))
    assert again["user"]["serviceUserID"] != op_uuid, "never the old account back"
    text = done.stdout + done.stderr
    assert accounts[1]["refreshToken"] not in text and "hash" not in text


def put(s3, bucket, key, body, **kw):
    s3.put_object(Bucket=bucket, Key=key, Body=body.encode() if isinstance(body, str) else body, **kw)


def test_check_finds_one_break_of_each_kind_and_repair_leaves_the_bucket_passing(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    s3 = svc.moto.s3()
    for name in ("auth-signin", "auth-refresh", "auth-link"):
        svc._default[name] = svc.start(name, IDENTITY_BUCKET=bucket)

    def account(sub=None):
        sub = sub or apple_sub()
        data = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
        return sub, data["user"]["serviceUserID"], data
    assert op.json("check")["found"] == 0, "an empty bucket passes"

    link = {"Metadata": {"link-id": uuidlib.uuid4().hex}}
    put(s3, bucket, f"identities/apple/{apple_sub()}", str(uuidlib.uuid4()), **link)  # names a missing account
    sub, deleted_uuid, data = account()
    ok(svc.link(refreshToken=data["refreshToken"], action="delete"))
    put(s3, bucket, f"identities/apple/{sub}", deleted_uuid, **link)  # names a deleted account
    put(s3, bucket, "purchases/apple/2000000123456789", deleted_uuid)  # a claim of a deleted account
    _, uuid, _ = account()
    put(s3, bucket, f"identities/google/{google_sub()}", uuid, **link)  # a stale identity file
    _, uuid, _ = account()
    put(s3, bucket, f"identities/google/{google_sub()}", uuid)  # unlisted (no link id, provider not listed)
    sub, uuid, _ = account()
    s3.delete_object(Bucket=bucket, Key=f"identities/apple/{sub}")  # listed without its file
    _, uuid, _ = account()
    s3.delete_object(Bucket=bucket, Key=f"users/{uuid}/account/profile.json")  # half-made
    _, uuid, _ = account()
    key = f"users/{uuid}/account/providers.json"
    doc = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
    since = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 3600))
    doc["pending"] = [{"type": "google", "id": google_sub(), "linkID": uuidlib.uuid4().hex, "since": since}]
    put(s3, bucket, key, json.dumps(doc))  # a stale pending link
    stuck = str(uuidlib.uuid4())
    past = lambda h: time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - h * 3600))
    put(s3, bucket, f"deletions/{stuck}.json", json.dumps({
        "version": 1, "serviceUserID": stuck, "requestedAt": past(5), "committedAt": past(5), "mappingsRemoved": True,
        "purge": {"passes": 0, "complete": False, "objectsDeleted": 0}, "secondPassDueAt": past(4),
        "secondPassDoneAt": None}))

    done = op.run("check", "--json")
    assert done.returncode == 3, f"check with breaks exits 3, got {done.returncode}: {done.stderr[-500:]}"
    report = json.loads(done.stdout)
    kinds = sorted(f["kind"] for f in report["findings"])
    assert kinds == sorted([
        "identity-names-missing-account", "identity-names-deleted-account", "claim-names-deleted-account",
        "stale-identity-file", "unlisted-identity", "listed-identity-without-file", "half-made-account",
        "stale-pending-link", "deletion-stuck"]), f"found {kinds}"
    assert report["pages"] >= 4 and report["requests"] > report["pages"]

    repaired = op.run("check", "--repair", "--yes", "--json")
    assert repaired.returncode == 0, f"repair left {[f for f in json.loads(repaired.stdout)['findings'] if not f['repaired']]}"
    assert op.json("check")["found"] == 0, "the bucket passes check after --repair"
    assert op.audits(repaired)[0]["action"] == "check-repair"


def test_profiles_with_static_keys_and_with_a_session_token_both_work(svc, operator):
    sub = apple_sub()
    uuid = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))["user"]["serviceUserID"]
    sts = svc.moto.client("sts", operator.identity["key"], operator.identity["secret"])
    temp = sts.assume_role(RoleArn=operator.identity["role_arn"], RoleSessionName="support-ada")["Credentials"]
    (operator.home / ".aws").mkdir(exist_ok=True)
    (operator.home / ".aws" / "credentials").write_text(
        f"[support]\naws_access_key_id = {operator.identity['key']}\naws_secret_access_key = {operator.identity['secret']}\n\n"
        f"[support-temp]\naws_access_key_id = {temp['AccessKeyId']}\naws_secret_access_key = {temp['SecretAccessKey']}\n"
        f"aws_session_token = {temp['SessionToken']}\n")
    (operator.home / ".aws" / "config").write_text(
        f"[profile support]\nregion = us-east-1\nendpoint_url = {svc.moto.endpoint}\n\n"
        f"[profile support-temp]\nregion = us-east-1\nendpoint_url = {svc.moto.endpoint}\n\n"
        "[profile chained]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = support\n")
    bare = operator.env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_REGION=None, AWS_ENDPOINT_URL=None)
    done = operator.ok("find", f"apple:{sub}", "--profile", "support", env=bare)
    assert done.stdout.strip() == uuid and operator.audits(done)[0]["operator"]["arn"] == operator.identity["arn"]
    done = operator.ok("show", uuid, env={**bare, "AWS_PROFILE": "support-temp"})
    assert uuid in done.stdout
    assert "support-ada" in operator.audits(done)[0]["operator"]["arn"], "the assumed role's session is the operator"
    failed = operator.run("show", uuid, "--profile", "chained", env=bare)
    assert failed.returncode != 0 and "role_arn" in failed.stderr and "not support" in failed.stderr
    assert operator.identity["secret"] not in failed.stderr + done.stderr + done.stdout
