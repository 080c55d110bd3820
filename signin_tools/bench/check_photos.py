"""Driver for scripts/bench.d/72-check-photos (see there): `authctl check` on a fixed set of
accounts while the photos per account grow, printing the S3 requests of each run (they must not
grow), beside a same-run baseline: the pages a whole listing of users/ takes at each size (what
a check that lists the users' objects would pay). Then a forced listing cut: exit 4, no write."""
import json
import logging
import os
import subprocess
import sys
import time

import boto3

from ..standins.ports import free_port
from ..standins.process import run_main
from .check import ACCOUNT, BIN, BUCKET, seed

N_ACCOUNTS = int(os.environ.get("N_ACCOUNTS", "200"))
PHOTOS = [int(p) for p in os.environ.get("PHOTOS", "0 10 100").split()]


def run_check(env: dict, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    t = time.perf_counter()
    done = subprocess.run([str(BIN / "authctl"), "check", "--json", *args], env=env, capture_output=True, text=True,
                          timeout=1800)
    return done, (time.perf_counter() - t) * 1000


def users_listing_pages(s3) -> int:
    return sum(1 for _ in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix="users/"))


def versions(s3) -> int:
    n = 0
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=BUCKET):
        n += len(page.get("Versions", [])) + len(page.get("DeleteMarkers", []))
    return n


def main():
    from moto.moto_server.threaded_moto_server import ThreadedMotoServer
    from moto.s3.models import s3_backends

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    rows, requests = [], set()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=endpoint, aws_access_key_id="AKIABENCHBENCHBENCH0",
                          aws_secret_access_key="bench")
        s3.create_bucket(Bucket=BUCKET)
        s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
        backend = s3_backends[ACCOUNT]["global"]
        seed(backend, N_ACCOUNTS)
        uuids = [p["Prefix"].split("/")[1] for page in s3.get_paginator("list_objects_v2").paginate(
            Bucket=BUCKET, Prefix="users/", Delimiter="/") for p in page.get("CommonPrefixes", [])]
        env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
               "AWS_ACCESS_KEY_ID": "AKIABENCHBENCHBENCH0", "AWS_SECRET_ACCESS_KEY": "bench", "IDENTITY_BUCKET": BUCKET}
        have = 0
        for photos in sorted(PHOTOS):
            for uuid in uuids:
                for n in range(have, photos):
                    backend.put_object(BUCKET, f"users/{uuid}/photos/img{n:05d}.jpg", b"p")
            have = photos
            done, wall = run_check(env)
            assert done.returncode == 0, f"check exited {done.returncode}: {done.stderr[-500:]}"
            report = json.loads(done.stdout)
            assert report["accounts"] == N_ACCOUNTS and report["found"] == 0, report
            requests.add(report["requests"])
            rows.append((photos, report["requests"], report["pages"], users_listing_pages(s3), wall))
        before = versions(s3)
        cut, _ = run_check(env, "--repair", "--yes", "--max-pages", "1", "--page-size", "10")
        cut_report = json.loads(cut.stdout)
        after = versions(s3)
    finally:
        server.stop()
    print(f"authctl check of {N_ACCOUNTS:,} accounts as their photos grow (release; in-process moto, seeded straight in)")
    print("  photos/account   check requests   check pages   a whole users/ listing (baseline)   wall ms")
    for photos, reqs, pages, baseline, wall in rows:
        print(f"  {photos:14d}   {reqs:14d}   {pages:11d}   {baseline:21d} pages        {wall:9.0f}")
    print(f"  requests constant as the photos grow: {'yes' if len(requests) == 1 else 'NO: ' + str(sorted(requests))}")
    print(f"  forced listing cut (--max-pages 1 --page-size 10 --repair): exit {cut.returncode}, "
          f"complete {cut_report['complete']}, repaired {cut_report['repaired']}, bucket versions {before} -> {after}")
    assert len(requests) == 1, "check's requests grew with the photos"
    assert cut.returncode == 4 and after == before, "a cut check must exit 4 and write nothing"


if __name__ == "__main__":
    sys.exit(run_main(main))
