"""Driver for scripts/bench.d/70-check (see there): `authctl check` on a bucket of N_ACCOUNTS
accounts, beside boto3 doing the plain listing of the same bucket and the same reads, against the
same in-process moto."""
import concurrent.futures
import json
import logging
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import boto3

from ..standins.ports import free_port
from ..standins.process import run_main

N_ACCOUNTS = int(os.environ.get("N_ACCOUNTS", "10000"))
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])
BUCKET = "signin-check-bench"
ACCOUNT = "123456789012"


def seed(backend, n: int) -> int:
    """`n` complete accounts straight into moto's model (no HTTP): identity file with its link id,
    the five markers, profile.json, providers.json, one session record, as sign-up leaves them."""
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    objects = 0
    for i in range(n):
        uid, link, sub = str(uuid.uuid4()), uuid.uuid4().hex, f"001234.bench{i:06d}.0001"
        key = backend.put_object(BUCKET, f"identities/apple/{sub}", uid.encode())
        key.set_metadata({"x-amz-meta-link-id": link})
        prefix = f"users/{uid}/"
        for marker in ("", "photos/", "thumbnails/", "metadata/", "account/"):
            backend.put_object(BUCKET, prefix + marker, b"")
        profile = {"version": 1, "serviceUserID": uid, "displayName": f"User {i}", "email": None, "createdAt": now,
                   "lastUpdated": now, "primaryProvider": "apple", "subscription": {"tier": "free"}, "preferences": {}}
        providers = {"version": 1, "primaryProvider": "apple", "providers": [
            {"type": "apple", "id": sub, "email": None, "displayName": None, "linkedAt": now, "lastUsed": now,
             "isPrimary": True, "linkID": link}]}
        backend.put_object(BUCKET, prefix + "account/profile.json", json.dumps(profile).encode())
        backend.put_object(BUCKET, prefix + "account/providers.json", json.dumps(providers).encode())
        backend.put_object(BUCKET, f"{prefix}account/sessions/{uuid.uuid4().hex}.json", b"{}")
        objects += 9
    return objects


def boto3_listing(s3) -> tuple[float, int, int]:
    t, pages, keys = time.perf_counter(), 0, 0
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        pages += 1
        keys += len(page.get("Contents", []))
    return (time.perf_counter() - t) * 1000, pages, keys


def boto3_same_reads(s3) -> tuple[float, int]:
    """What check reads, the usual script way: list the four prefixes, then GET every identity
    file and providers.json on 32 threads (check's own concurrency)."""
    t, requests, reads = time.perf_counter(), 0, []
    for prefix in ("identities/", "users/", "deletions/", "purchases/apple/"):
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix):
            requests += 1
            keys = [c["Key"] for c in page.get("Contents", [])]
            reads += [k for k in keys if prefix == "identities/" or k.endswith("/account/providers.json")]
    with concurrent.futures.ThreadPoolExecutor(32) as pool:
        list(pool.map(lambda k: s3.get_object(Bucket=BUCKET, Key=k)["Body"].read(), reads))
    return (time.perf_counter() - t) * 1000, requests + len(reads)


def main():
    from moto.moto_server.threaded_moto_server import ThreadedMotoServer
    from moto.s3.models import s3_backends

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=endpoint, aws_access_key_id="AKIABENCHBENCHBENCH0",
                          aws_secret_access_key="bench")
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        t = time.perf_counter()
        objects = seed(s3_backends[ACCOUNT]["global"], N_ACCOUNTS)
        seeded = time.perf_counter() - t
        env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
               "AWS_ACCESS_KEY_ID": "AKIABENCHBENCHBENCH0", "AWS_SECRET_ACCESS_KEY": "bench", "IDENTITY_BUCKET": BUCKET}
        t = time.perf_counter()
        done = subprocess.run([str(BIN / "authctl"), "check", "--json"], env=env, capture_output=True, text=True,
                              timeout=1800)
        wall = (time.perf_counter() - t) * 1000
        assert done.returncode == 0, f"check exited {done.returncode}: {done.stderr[-1000:]}"
        report = json.loads(done.stdout)
        assert report["accounts"] == N_ACCOUNTS and report["found"] == 0, report
        list_ms, list_pages, keys = boto3_listing(s3)
        same_ms, same_requests = boto3_same_reads(s3)
    finally:
        server.stop()
    print(f"authctl check of {N_ACCOUNTS:,} accounts ({objects:,} objects, seeded in {seeded:.1f} s straight into moto)")
    print(f"  authctl check (release)                 {wall:9.0f} ms   pages {report['pages']}, requests {report['requests']:,}"
          f"   ({N_ACCOUNTS / wall * 1000:,.0f} accounts/s; its own clock {report['milliseconds']} ms)")
    print(f"  boto3 list_objects_v2 of the bucket     {list_ms:9.0f} ms   pages {list_pages}, keys {keys:,}   (floor: listing only)")
    print(f"  boto3 the same lists and GETs, 32 thr.  {same_ms:9.0f} ms   requests {same_requests:,}")
    print(f"  ratio check / boto3 same reads: {wall / same_ms:.2f} x")


if __name__ == "__main__":
    sys.exit(run_main(main))
