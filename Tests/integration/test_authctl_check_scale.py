"""`check` at scale (issue 23, defect 12; contract v4 "Operator actions"): it reads accounts,
identity files, claims and deletion records without listing the users' own objects (the same
requests with 0 photos and with 1,100), never judges from a listing that could not finish (exit 4,
nothing repaired), and reports an unreadable document as a finding instead of stopping.
PYTEST_DONT_REWRITE."""
import concurrent.futures
import json
import uuid as uuidlib

from authctl_support import own_bucket, versions  # noqa: F401 (fixture)
from service_support import apple_sub, google_sub, ok


def accounts(svc, bucket: str, n: int) -> list[str]:
    svc._default["auth-signin"] = svc.start("auth-signin", IDENTITY_BUCKET=bucket)
    return [ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(apple_sub())))["user"]["serviceUserID"]
            for _ in range(n)]


def stale_file(s3, bucket: str, uuid: str) -> None:
    s3.put_object(Bucket=bucket, Key=f"identities/google/{google_sub()}", Body=uuid.encode(),
                  Metadata={"link-id": uuidlib.uuid4().hex})


def test_the_requests_do_not_grow_with_the_photos(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    uuids = accounts(svc, bucket, 3)
    bare = op.json("check")
    s3 = svc.moto.s3()
    keys = [f"users/{uuids[0]}/photos/img{n:05d}.jpg" for n in range(1_100)]
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda k: s3.put_object(Bucket=bucket, Key=k, Body=b"p"), keys))
    full = op.json("check")
    assert (full["found"], full["accounts"], full["complete"]) == (0, 3, True), full
    assert (full["requests"], full["pages"]) == (bare["requests"], bare["pages"]), \
        f"1,100 photos took check from {bare['requests']} requests ({bare['pages']} pages) to {full['requests']} ({full['pages']})"


def test_a_listing_cut_short_exits_4_and_repairs_nothing(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    uuids = accounts(svc, bucket, 3)
    stale_file(svc.moto.s3(), bucket, uuids[-1])
    before = versions(op)
    done = op.run("check", "--repair", "--yes", "--max-pages", "1", "--page-size", "1", "--json")
    assert done.returncode == 4, f"a check cut short exited {done.returncode}: {done.stderr[-300:]}"
    report = json.loads(done.stdout)
    assert report["complete"] is False and report["repairsWithheld"] is True and report["repaired"] == 0
    assert any("page limit" in why for why in report["unchecked"]), report["unchecked"]
    assert not [f for f in report["findings"] if f["kind"] in ("identity-names-missing-account", "half-made-account")], \
        "accounts past the cut were judged missing"
    assert versions(op) == before, "a check cut short wrote to the bucket"
    assert [a["phase"] for a in op.audits(done)] == ["summary"] and op.audits(done)[0]["outcome"] == "withheld"


def test_an_unreadable_document_is_a_finding_and_the_check_goes_on(svc, own_bucket):
    op, bucket = own_bucket, own_bucket.moto.bucket
    a, b = accounts(svc, bucket, 2)
    s3 = svc.moto.s3()
    s3.put_object(Bucket=bucket, Key=f"users/{a}/account/providers.json", Body=b"{not json")
    ghost = str(uuidlib.uuid4())
    s3.put_object(Bucket=bucket, Key=f"deletions/{ghost}.json", Body=b'{"version": 1}')
    stale_file(s3, bucket, b)
    done = op.run("check", "--json")
    assert done.returncode == 3, f"exit {done.returncode}: {done.stderr[-300:]}"
    report = json.loads(done.stdout)
    assert report["complete"] is True
    unreadable = sorted(f["key"] for f in report["findings"] if f["kind"] == "unreadable-document")
    assert unreadable == sorted([f"users/{a}/account/providers.json", f"deletions/{ghost}.json"]), report["findings"]
    assert [f["serviceUserID"] for f in report["findings"] if f["kind"] == "stale-identity-file"] == [b], \
        "the other account was still checked"
    repaired = json.loads(op.run("check", "--repair", "--yes", "--json").stdout)
    assert [f["kind"] for f in repaired["findings"] if f["repaired"]] == ["stale-identity-file"]
