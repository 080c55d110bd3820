"""Driver for scripts/bench.d/55-purge (see there): auth-link's `delete` of a large account beside
the same purge written the usual way with boto3."""
import concurrent.futures
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.process import run_main
from .stats import network_lines

N_OBJECTS, N_RUNS = int(os.environ["N_OBJECTS"]), int(os.environ["N_RUNS"])
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])


def fill(s3, bucket: str, prefix: str, total: int) -> int:
    """`total` versions and delete markers under `prefix`, as a photo library leaves them: 80 %
    uploads, 10 % overwrites (noncurrent versions), 10 % deletions (delete markers)."""
    uploads = total * 8 // 10
    extra = total - uploads
    jobs = [("put", f"{prefix}photos/{i:05d}.jpg") for i in range(uploads)]
    jobs += [("put", f"{prefix}photos/{i:05d}.jpg") for i in range(extra // 2)]
    jobs += [("delete", f"{prefix}photos/{i:05d}.jpg") for i in range(extra // 2, extra)]

    def run(job):
        kind, key = job
        if kind == "put":
            s3.put_object(Bucket=bucket, Key=key, Body=b"jpeg")
        else:
            s3.delete_object(Bucket=bucket, Key=key)

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(run, jobs[:uploads]))
        list(pool.map(run, jobs[uploads:]))
    return count_versions(s3, bucket, prefix)


def count_versions(s3, bucket: str, prefix: str) -> int:
    n = 0
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix):
        n += len(page.get("Versions", [])) + len(page.get("DeleteMarkers", []))
    return n


def boto3_purge(s3, bucket: str, prefix: str, listing_ms: list) -> int:
    """The usual way: page through the versions, delete each page in batches of 1,000. Appends
    the time spent in the listing calls to `listing_ms` (moto's share of the floor)."""
    deleted = 0
    spent = 0.0
    while True:
        t = time.perf_counter()
        page = s3.list_object_versions(Bucket=bucket, Prefix=prefix, MaxKeys=1000)
        spent += time.perf_counter() - t
        items = [{"Key": v["Key"], "VersionId": v["VersionId"]} for v in page.get("Versions", []) + page.get("DeleteMarkers", [])]
        if not items:
            listing_ms.append(spent * 1000)
            return deleted
        for i in range(0, len(items), 1000):
            s3.delete_objects(Bucket=bucket, Delete={"Objects": items[i:i + 1000], "Quiet": True})
            deleted += len(items[i:i + 1000])


def main():
    local = LocalDeployment(BIN, log_dir=ROOT / "bench-out" / "purge-logs", extra_env={"AWS_LAMBDA_LOG_LEVEL": "DEBUG"},
                            functions=("auth-signin", "auth-link"))
    with local:
        signin, link = local.emulators["auth-signin"], local.emulators["auth-link"]
        s3, bucket = local.moto.s3(), local.moto.bucket
        swift, python, network, sizes, listing = [], [], [], [], []
        for run in range(N_RUNS):
            data = signin.invoke({"provider": "apple", "idToken": local.idp.apple_token(f"001234.{uuid.uuid4().hex}.0005")})["data"]
            prefix = data["storage"]["prefix"]
            sizes.append(fill(s3, bucket, prefix, N_OBJECTS))
            mark = len(link.logs())
            t = time.perf_counter()
            answer = link.invoke({"refreshToken": data["refreshToken"], "action": "delete"}, timeout=120)
            swift.append((time.perf_counter() - t) * 1000)
            assert answer["success"] and answer["data"]["purge"] == "complete", answer
            assert count_versions(s3, bucket, prefix) == 0, "the delete left versions"
            found = network_lines(link.logs(), mark)
            network.append(found[-1] if found else (0, 0))

            other = f"users/{uuid.uuid4()}/"
            fill(s3, bucket, other, N_OBJECTS)
            t = time.perf_counter()
            boto3_purge(s3, bucket, other, listing)
            python.append((time.perf_counter() - t) * 1000)
            assert count_versions(s3, bucket, other) == 0

    s, p = statistics.median(swift), statistics.median(python)
    print(f"purge of one account, {statistics.median(sizes)} versions and delete markers, warm, {N_RUNS} runs each side")
    print(f"  swift auth-link delete (whole action)   median {s:8.1f} ms   requests {network[0][0]}, sequential rounds {network[0][1]}"
          f"   ({statistics.median(sizes) / s * 1000:,.0f} versions/s)")
    print(f"  python boto3 purge only (sequential)     median {p:8.1f} ms")
    print(f"    of which ListObjectVersions calls       {statistics.median(listing):8.1f} ms   (moto deep-copies every version"
          " under the prefix on each call, the account's 5,000 here: the same calls bound both sides)")
    print(f"  ratio swift/python: {s / p:.2f} x   (target ≤ 0.5 x)")


if __name__ == "__main__":
    sys.exit(run_main(main))
