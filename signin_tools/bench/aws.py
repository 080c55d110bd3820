"""Driver for scripts/bench.d/20-aws (see there): the AWS layer's micro-benchmarks (Benchmarks/,
`signin_tools.bench.micro`) beside botocore and boto3 measured in the same run: the signing time, a
GetObject against local moto, and five PutObjects at once vs one after another against a loopback
stub that answers after 20 ms (latency-bound, as S3 is).

Reads GET_COUNT (boto3's GetObjects) from the environment (the script sets it)."""
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
from .micro import run_micro

GET_COUNT = int(os.environ["GET_COUNT"])
KEY = "bench/get/profile.json"  # the key the micro-benchmark reads (S3Fixture.key)
# The scripted loopback S3 stand-in the Swift retry tests use; here a latency-bound S3.
AWS_STUB = ROOT / "Tests" / "AWSClientsTests" / "Stubs" / "aws_stub.py"
GET, TOGETHER, ONE_BY_ONE = ("s3-getobject-kept-alive", "s3-five-putobjects-overlapped",
                             "s3-five-putobjects-one-after-another")
FROM_ENVIRONMENT = {"SIGNIN_BENCH_AWS": "environment"}


def botocore_microseconds_per_signature(seconds=1.0):
    """The same S3 PutObject-shaped request the micro-benchmark signs, through botocore's S3SigV4Auth."""
    creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "IQoJb3JpZ2luX2VjEXAMPLETOKEN")
    signer = auth.S3SigV4Auth(creds, "s3", "us-east-1")
    body = b'{"version":1,"serviceUserID":"7f1c0d2e-0000-4000-8000-000000000001"}'
    url = ("https://signin-identities.s3.us-east-1.amazonaws.com/users/7f1c0d2e-0000-4000-8000-000000000001/account/"
           "sessions/0123456789abcdef0123456789abcdef.json")
    n, start = 0, time.perf_counter()
    while n < 1_000_000 and time.perf_counter() - start < seconds:
        req = AWSRequest(method="PUT", url=url, data=body, headers={
            "Content-Type": "application/json", "If-None-Match": "*", "x-amz-tagging": "record=session"})
        signer.add_auth(req)
        n += 1
    return (time.perf_counter() - start) / n * 1e6


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
    ours = run_micro("sigv4-sign-.*")["sigv4-sign-s3-putobject"]
    boto = botocore_microseconds_per_signature()
    print(f"signing          Swift {ours['wallClock']:7.1f} us ({ours['mallocCountTotal']:.0f} mallocs)   "
          f"botocore {boto:7.1f} us   ratio {boto / ours['wallClock']:.1f}x faster")


def against_moto() -> None:
    moto = MotoServer().start()
    try:
        ours = run_micro("s3-getobject-.*", {**moto.admin_env(), **FROM_ENVIRONMENT})[GET]
        boto = boto3_get_ms(moto.s3(), moto.bucket, GET_COUNT)
        print(f"GetObject (moto) Swift {ours['wallClock'] / 1000:.3f} ms median   boto3 {boto:.3f} ms median   "
              f"Swift/boto3 {ours['wallClock'] / 1000 / boto:.2f}   (moto keeps connections alive, as S3 does)")
    finally:
        moto.stop()


def against_latency_bound_stub() -> None:
    # moto is one Python process, so five puts at once mostly queue on its interpreter. Real S3 is
    # latency-bound; a loopback stub that answers every request after 20 ms shows what overlap buys there.
    stub = start_process_group([sys.executable, str(AWS_STUB), '{"*": ["delay:20"]}'],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = json.loads(stub.stdout.readline())["port"]
        env = {"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDBENCH", "AWS_SECRET_ACCESS_KEY": "bench-secret",
               "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "IDENTITY_BUCKET": "signin-identities-local",
               **FROM_ENVIRONMENT}
        r = run_micro("s3-five-putobjects-.*", env)
        together, one_by_one = r[TOGETHER]["wallClock"] / 1000, r[ONE_BY_ONE]["wallClock"] / 1000
        print(f"5 x PutObject    at once {together:.3f} ms   one after another {one_by_one:.3f} ms   "
              f"ratio {together / one_by_one:.3f}   (loopback stub, 20 ms per request; medians)")
    finally:
        stub.stdin.close()
        stop_process_group(stub)


def main() -> None:
    signing()
    against_moto()
    against_latency_bound_stub()


if __name__ == "__main__":
    sys.exit(run_main(main))
