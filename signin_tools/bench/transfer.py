"""Driver for scripts/bench.d/75-apple-transfer (see there): `authctl apple-transfer prepare` over
N_ACCOUNTS Apple identities seeded straight into an in-process moto, against the loopback Apple
(signin_tools/standins/apple_migration.py), killed with SIGKILL midway and run again; beside a
naive same-run baseline (one user at a time, boto3 and urllib, as the usual migration scripts do)."""
import concurrent.futures
import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import boto3

from ..standins import AppleAuthServer, IdentityProvider
from ..standins.ports import free_port
from ..standins.process import run_main, start_process_group, stop_process_group
from .check import ACCOUNT, BUCKET, seed

N_ACCOUNTS = int(os.environ.get("N_ACCOUNTS", "10000"))
RATE = os.environ.get("RATE", "200")
BATCH = os.environ.get("BATCH", "32")
BASELINE = int(os.environ.get("BASELINE_USERS", "300"))
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])
TEAM_B = "TEAMB67890"


def prepare(env: dict, kill_after: int | None, apple) -> tuple[float, dict | None, int]:
    """One run; with `kill_after`, SIGKILL once Apple has answered that many users. Returns the
    wall time, the JSON report (None when killed) and Apple's transfer_sub answers during it."""
    before = apple.migration.counts["transfer_sub"]
    cmd = [str(BIN / "authctl"), "apple-transfer", "prepare", "--target-team", TEAM_B, "--yes", "--json",
           "--rate", RATE, "--batch", BATCH]
    t = time.perf_counter()
    proc = start_process_group(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        if kill_after is not None:
            deadline = time.monotonic() + 3600
            while apple.migration.counts["transfer_sub"] - before < kill_after and time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise RuntimeError("prepare ended before it could be killed")
                time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            return (time.perf_counter() - t) * 1000, None, apple.migration.counts["transfer_sub"] - before
        out, _ = proc.communicate(timeout=3600)
    finally:
        stop_process_group(proc)
    assert proc.returncode == 0, f"prepare exited {proc.returncode}"
    return (time.perf_counter() - t) * 1000, json.loads(out), apple.migration.counts["transfer_sub"] - before


def baseline(s3, apple, keys: list[str]) -> float:
    """The usual script: per user, read the identity file and providers.json, ask Apple, write the
    transfer file and providers.json, one after another (into a bucket of its own)."""
    form = {"grant_type": "client_credentials", "scope": "user.migration", "client_id": apple.client_id,
            "client_secret": apple_secret(apple)}
    token = post(apple, "/auth/token", form)["access_token"]
    t = time.perf_counter()
    for key in keys:
        uid = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()
        providers = s3.get_object(Bucket=BUCKET, Key=f"users/{uid}/account/providers.json")["Body"].read()
        answer = post(apple, "/auth/usermigrationinfo", {"sub": key.split("/")[-1], "target": TEAM_B,
                                                          "client_id": apple.client_id,
                                                          "client_secret": form["client_secret"]}, token)
        s3.put_object(Bucket=BUCKET + "-baseline", Key=f"identities/apple-transfer/{answer['transfer_sub']}",
                      Body=uid.encode())
        s3.put_object(Bucket=BUCKET + "-baseline", Key=f"users/{uid}/account/providers.json", Body=providers)
    return (time.perf_counter() - t) * 1000


def apple_secret(apple) -> str:
    import base64

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils

    def b64(b: bytes) -> str:
        return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
    now = int(time.time())
    head = b64(json.dumps({"alg": "ES256", "kid": apple.key_id}).encode())
    body = b64(json.dumps({"iss": apple.team_id, "iat": now, "exp": now + 3000, "aud": "https://appleid.apple.com",
                           "sub": apple.client_id}).encode())
    r, s = utils.decode_dss_signature(apple.key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256())))
    return f"{head}.{body}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def post(apple, path: str, form: dict, bearer: str | None = None) -> dict:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    request = urllib.request.Request(apple.auth_url + path, data=urllib.parse.urlencode(form).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def main():
    from moto.moto_server.threaded_moto_server import ThreadedMotoServer
    from moto.s3.models import s3_backends

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    apple = AppleAuthServer(IdentityProvider()).start()
    try:
        apple.migration.add_team(TEAM_B, "KEYB000001")
        endpoint = f"http://127.0.0.1:{port}"
        s3 = boto3.client("s3", region_name="us-east-1", endpoint_url=endpoint, aws_access_key_id="AKIABENCHBENCHBENCH0",
                          aws_secret_access_key="bench")
        for bucket in (BUCKET, BUCKET + "-baseline"):
            s3.create_bucket(Bucket=bucket)
            s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
        t = time.perf_counter()
        seed(s3_backends[ACCOUNT]["global"], N_ACCOUNTS)
        for i in range(N_ACCOUNTS):
            apple.migration.adopt(f"001234.bench{i:06d}.0001", f"bench{i}")
        seeded = time.perf_counter() - t
        env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
               "AWS_ACCESS_KEY_ID": "AKIABENCHBENCHBENCH0", "AWS_SECRET_ACCESS_KEY": "bench", "IDENTITY_BUCKET": BUCKET,
               **apple.function_env()}
        killed_ms, _, killed_answers = prepare(env, N_ACCOUNTS // 2, apple)
        files_after_kill = sum(1 for page in s3.get_paginator("list_objects_v2").paginate(
            Bucket=BUCKET, Prefix="identities/apple-transfer/") for _ in page.get("Contents", []))
        marker = json.loads(s3.get_object(Bucket=BUCKET, Key=f"operator/apple-transfer/{TEAM_B}.json")["Body"].read())
        resumed_ms, report, resumed_answers = prepare(env, None, apple)
        tokens = apple.migration.counts["client_credentials"]   # both runs' (the baseline adds its own)
        files = [o["Key"] for page in s3.get_paginator("list_objects_v2").paginate(
            Bucket=BUCKET, Prefix="identities/apple-transfer/") for o in page.get("Contents", [])]
        assert len(files) == N_ACCOUNTS and report["pass"]["done"] + report["run"]["already"] >= N_ACCOUNTS - 1, report
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            named = set(pool.map(lambda k: s3.get_object(Bucket=BUCKET, Key=k)["Body"].read(), files))
        assert len(named) == N_ACCOUNTS, "every transfer file names its own account"

        def recorded(uid: bytes) -> bool:
            doc = json.loads(s3.get_object(Bucket=BUCKET, Key=f"users/{uid.decode()}/account/providers.json")["Body"].read())
            return [t["team"] for t in doc["providers"][0].get("transfers", [])] == [TEAM_B]
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            assert all(pool.map(recorded, named)), "every account records its one transfer"
        sample = [f"identities/apple/001234.bench{i:06d}.0001" for i in range(min(BASELINE, N_ACCOUNTS))]
        base_ms = baseline(s3, apple, sample)
    finally:
        apple.stop()
        server.stop()
    asked = killed_answers + resumed_answers
    print(f"authctl apple-transfer prepare over {N_ACCOUNTS:,} Apple identities (seeded in {seeded:.1f} s straight into "
          f"moto), --rate {RATE} --batch {BATCH}, release build")
    print(f"  first run, SIGKILL after {N_ACCOUNTS // 2:,} answers  {killed_ms:9.0f} ms   Apple answered {killed_answers:,}, "
          f"{files_after_kill:,} transfer files, progress after {(marker['after'] or 'none saved yet').split('/')[-1]}")
    print(f"  second run (resumed)                  {resumed_ms:9.0f} ms   walked {report['run']['walked']:,}, "
          f"done {report['done']:,}, already {report['already']:,}; Apple {report['appleRequests']:,} requests "
          f"({report['throttled']} throttled); client-credentials tokens over both runs: {tokens}")
    print(f"  both runs: Apple asked {asked:,} times for {N_ACCOUNTS:,} users ({asked - N_ACCOUNTS:,} asked again after "
          f"the kill); {len(files):,} transfer files; wall {killed_ms + resumed_ms:,.0f} ms "
          f"({N_ACCOUNTS / (killed_ms + resumed_ms) * 1000:,.0f} identities/s)")
    print(f"  floor: {N_ACCOUNTS:,} requests at --rate {RATE}/s = {N_ACCOUNTS / float(RATE) * 1000:9.0f} ms")
    print(f"  baseline: one user at a time (boto3 + urllib), {len(sample)} users {base_ms:9.0f} ms "
          f"({len(sample) / base_ms * 1000:,.0f} identities/s)")


if __name__ == "__main__":
    sys.exit(run_main(main))
