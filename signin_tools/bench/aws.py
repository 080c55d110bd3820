"""Driver for scripts/bench.d/20-aws (see there): the AWS layer's signing rate, GetObject round
trips and overlapped PutObjects (release aws-bench) beside botocore/boto3 and sequential puts.

Reads AWS_BENCH_BIN, GET_COUNT, GET_RUNS and PUT_ROUNDS from the environment (the script sets them)."""
import json
import os
import statistics
import subprocess
import sys
import time

from botocore import auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from ..repo import ROOT
from ..standins import MotoServer
from ..standins.process import run_main, start_process_group, stop_process_group

BIN = os.environ["AWS_BENCH_BIN"]
GET_COUNT, GET_RUNS, PUT_ROUNDS = int(os.environ["GET_COUNT"]), int(os.environ["GET_RUNS"]), int(os.environ["PUT_ROUNDS"])
KEY = "bench/get/profile.json"
# The scripted loopback S3 stand-in the Swift retry tests use; here a latency-bound S3.
AWS_STUB = ROOT / "Tests" / "AWSClientsTests" / "Stubs" / "aws_stub.py"


def run(args, env=None):
    out = subprocess.run([BIN, *args], env=env, capture_output=True, text=True, timeout=180)
    if out.returncode != 0:
        sys.exit(f"20-aws: aws-bench {args[0]} failed: {out.stderr.strip()}")
    return dict(line.split(" ", 1) for line in out.stdout.split("\n") if " " in line)


def botocore_signatures_per_second(seconds=1.0):
    creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "IQoJb3JpZ2luX2VjEXAMPLETOKEN")
    signer = auth.S3SigV4Auth(creds, "s3", "us-east-1")
    body = b'{"version":1,"serviceUserID":"7f1c0d2e-0000-4000-8000-000000000001"}'
    url = "https://signin-identities.s3.us-east-1.amazonaws.com/users/7f1c0d2e-0000-4000-8000-000000000001/account/profile.json"
    n, start = 0, time.perf_counter()
    while n < 1_000_000 and time.perf_counter() - start < seconds:
        req = AWSRequest(method="PUT", url=url, data=body,
                         headers={"Content-Type": "application/json", "If-Match": '"9b2cf535f27731c974343645a3985328"'})
        signer.add_auth(req)
        n += 1
    return n / (time.perf_counter() - start)


def boto3_get_ms(s3, bucket, count):
    s3.get_object(Bucket=bucket, Key=KEY)["Body"].read()  # warm the connection
    times, start = [], time.perf_counter()
    for _ in range(count):
        t0 = time.perf_counter()
        s3.get_object(Bucket=bucket, Key=KEY)["Body"].read()
        times.append((time.perf_counter() - t0) * 1000)
        if time.perf_counter() - start > 60:
            break
    return statistics.median(times)


def signing() -> None:
    ours = run(["sign", "1"])
    ours_sps = int(ours["signatures_per_second"])
    boto_sps = botocore_signatures_per_second()
    print(f"signing          aws-bench {ours_sps:>9,}/s ({ours['microseconds_per_signature']} µs)   botocore {boto_sps:>9,.0f}/s   ratio {ours_sps / boto_sps:.1f}x")


def against_moto() -> None:
    moto = MotoServer().start()
    try:
        env = dict(os.environ, **moto.admin_env())
        s3 = moto.s3()
        s3.put_object(Bucket=moto.bucket, Key=KEY, Body=b"x" * 1024, ContentType="application/json")
        swift_runs, boto_runs = [], []
        for _ in range(GET_RUNS):  # alternate, so drift in moto affects both alike
            swift_runs.append(float(run(["get", str(GET_COUNT), KEY], env)["get_ms_median"]))
            boto_runs.append(boto3_get_ms(s3, moto.bucket, GET_COUNT))
        ours_get, boto_get = statistics.median(swift_runs), statistics.median(boto_runs)
        print(f"GetObject (moto) aws-bench {ours_get:.3f} ms median   boto3 {boto_get:.3f} ms median   "
              f"ours/boto3 {ours_get / boto_get:.2f}   ({GET_RUNS} runs x {GET_COUNT} sequential gets, 1 KiB)")
        puts = run(["puts", str(PUT_ROUNDS)], env)
        print(f"5 x PutObject    at once {puts['five_puts_overlapped_ms_median']} ms   one after another "
              f"{puts['five_puts_sequential_ms_median']} ms   ratio {puts['overlapped_over_sequential']}   ({puts['puts_rounds']} rounds, medians)")
    finally:
        moto.stop()


def against_latency_bound_stub() -> None:
    # moto is one Python process, so five puts at once mostly queue on its interpreter. Real S3 is
    # latency-bound; a loopback stub that answers every request after 20 ms shows what overlap buys there.
    stub = start_process_group([sys.executable, str(AWS_STUB), '{"*": ["delay:20"]}'],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = json.loads(stub.stdout.readline())["port"]
        env = dict(os.environ, AWS_REGION="us-east-1", AWS_ACCESS_KEY_ID="AKIDBENCH", AWS_SECRET_ACCESS_KEY="bench-secret",
                   AWS_ENDPOINT_URL=f"http://127.0.0.1:{port}", IDENTITY_BUCKET="signin-identities-local")
        puts = run(["puts", str(PUT_ROUNDS)], env)
        print(f"5 x PutObject    at once {puts['five_puts_overlapped_ms_median']} ms   one after another "
              f"{puts['five_puts_sequential_ms_median']} ms   ratio {puts['overlapped_over_sequential']}   (loopback stub, 20 ms per request)")
    finally:
        stub.stdin.close()
        stop_process_group(stub)


def main() -> None:
    signing()
    against_moto()
    against_latency_bound_stub()


if __name__ == "__main__":
    sys.exit(run_main(main))
