"""Driver for scripts/bench.d/50-accounts (see there): the functions' warm sign-in, sign-up and
refresh beside the same operations written the usual way with boto3."""
import base64
import hashlib
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.process import run_main
from .soak import child_pid
from .stats import network_lines, pct, process_cpu_ns, timed, timed_cpu

N_SIGNIN, N_SIGNUP = int(os.environ["N_SIGNIN"]), int(os.environ["N_SIGNUP"])
N_REFRESH = int(os.environ.get("N_REFRESH", os.environ["N_SIGNIN"]))
N_CPU = int(os.environ.get("N_CPU", "400"))  # operations of each kind for the CPU figures, each side
BLOCKS = 10
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])


class Boto3Baseline:
    """The same operations the usual way: boto3 calls one after another, JWKS cached. Each runs as
    the function it stands for, with that function's grants (a refresh reads session records, which
    sign-in's role may only write)."""

    def __init__(self, local, function: str = "auth-signin"):
        import boto3
        from cryptography.hazmat.primitives.asymmetric import rsa

        env = local.env(function)
        kw = dict(region_name="us-east-1", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
                  aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"])
        self.s3, self.sts = boto3.client("s3", **kw), boto3.client("sts", **kw)
        self.bucket, self.role = env["IDENTITY_BUCKET"], env["USER_ROLE_ARN"]
        import urllib.request
        jwks = json.loads(urllib.request.urlopen(env["APPLE_JWKS_URL"], timeout=5).read())
        self.keys = {k["kid"]: rsa.RSAPublicNumbers(int.from_bytes(b64(k["e"]), "big"), int.from_bytes(b64(k["n"]), "big")).public_key() for k in jwks["keys"]}
        self.requests = 0

    def verify(self, token):
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding
        h, p, s = token.split(".")
        header, claims = json.loads(b64(h)), json.loads(b64(p))
        self.keys[header["kid"]].verify(b64(s), f"{h}.{p}".encode(), padding.PKCS1v15(), hashes.SHA256())
        assert claims["iss"] == "https://appleid.apple.com" and claims["exp"] > time.time()
        return claims

    def call(self, fn, **kw):
        self.requests += 1
        return fn(**kw)

    def signin(self, token):
        c = self.verify(token)
        uid = self.call(self.s3.get_object, Bucket=self.bucket, Key=f"identities/apple/{c['sub']}")["Body"].read().decode()
        json.loads(self.call(self.s3.get_object, Bucket=self.bucket, Key=f"users/{uid}/account/profile.json")["Body"].read())
        json.loads(self.call(self.s3.get_object, Bucket=self.bucket, Key=f"users/{uid}/account/providers.json")["Body"].read())
        self.session(uid)
        self.credentials(uid)

    def signup(self, token):
        c = self.verify(token)
        key = f"identities/apple/{c['sub']}"
        try:
            self.call(self.s3.get_object, Bucket=self.bucket, Key=key)
            raise AssertionError("exists")
        except self.s3.exceptions.NoSuchKey:
            pass
        uid = str(uuid.uuid4())
        self.call(self.s3.put_object, Bucket=self.bucket, Key=key, Body=uid.encode(), IfNoneMatch="*", ContentType="text/plain")
        for m in ("", "photos/", "thumbnails/", "metadata/", "account/"):
            self.call(self.s3.put_object, Bucket=self.bucket, Key=f"users/{uid}/{m}", Body=b"", ContentType="application/x-directory")
        doc = json.dumps({"version": 1, "serviceUserID": uid})
        self.call(self.s3.put_object, Bucket=self.bucket, Key=f"users/{uid}/account/profile.json", Body=doc, IfNoneMatch="*")
        self.call(self.s3.put_object, Bucket=self.bucket, Key=f"users/{uid}/account/providers.json", Body=doc, IfNoneMatch="*")
        self.session(uid)
        self.credentials(uid)

    def refresh(self, uid, sid):
        """The refresh the usual way: read the record and the account, credentials, write the record."""
        key = f"users/{uid}/account/sessions/{sid}.json"
        obj = self.call(self.s3.get_object, Bucket=self.bucket, Key=key)
        json.loads(obj["Body"].read())
        json.loads(self.call(self.s3.get_object, Bucket=self.bucket, Key=f"users/{uid}/account/profile.json")["Body"].read())
        json.loads(self.call(self.s3.get_object, Bucket=self.bucket, Key=f"users/{uid}/account/providers.json")["Body"].read())
        self.credentials(uid)
        token = base64.urlsafe_b64encode(os.urandom(32)).decode()
        self.call(self.s3.put_object, Bucket=self.bucket, Key=key, Body=json.dumps({"hash": hashlib.sha256(token.encode()).hexdigest()}),
                  IfMatch=obj["ETag"], Tagging="record=session")

    def session(self, uid):
        token = base64.urlsafe_b64encode(os.urandom(32)).decode()
        self.call(self.s3.put_object, Bucket=self.bucket, Key=f"users/{uid}/account/sessions/{uuid.uuid4().hex}.json",
                  Body=json.dumps({"hash": hashlib.sha256(token.encode()).hexdigest()}), IfNoneMatch="*", Tagging="record=session")

    def credentials(self, uid):
        policy = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{self.bucket}/users/{uid}/photos/*"}]})
        self.call(self.sts.assume_role, RoleArn=self.role, RoleSessionName=f"user-{uid}", DurationSeconds=3600, Policy=policy)


def b64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def main():
    local = LocalDeployment(BIN, log_dir=ROOT / "bench-out" / "accounts-logs", extra_env={"AWS_LAMBDA_LOG_LEVEL": "DEBUG"},
                            functions=("auth-signin", "auth-refresh"))
    with local:
        fn = local.emulators["auth-signin"]
        refresh_fn = local.emulators["auth-refresh"]
        idp = local.idp
        existing = f"001234.{uuid.uuid4().hex}.0001"
        assert fn.invoke({"provider": "apple", "idToken": idp.apple_token(existing)})["success"]
        for _ in range(10):  # warm: connections open, keys cached
            fn.invoke({"provider": "apple", "idToken": idp.apple_token(existing)})

        signin_tokens = [idp.apple_token(existing) for _ in range(N_SIGNIN)]
        signup_tokens = [idp.apple_token(f"001234.{uuid.uuid4().hex}.0002") for _ in range(N_SIGNUP)]
        mark = len(fn.logs())
        it = iter(signin_tokens)
        swift_in = timed(lambda: fn.invoke({"provider": "apple", "idToken": next(it), "intent": "signin"}), N_SIGNIN)
        net_in = network_lines(fn.logs(), mark)
        mark = len(fn.logs())
        it = iter(signup_tokens)
        swift_up = timed(lambda: fn.invoke({"provider": "apple", "idToken": next(it), "intent": "signup"}), N_SIGNUP)
        net_up = network_lines(fn.logs(), mark)

        token = fn.invoke({"provider": "apple", "idToken": idp.apple_token(existing)})["data"]["refreshToken"]
        for _ in range(10):  # warm
            token = refresh_fn.invoke({"refreshToken": token})["data"]["refreshToken"]
        mark = len(refresh_fn.logs())
        holder = [token]

        def one_refresh():
            answer = refresh_fn.invoke({"refreshToken": holder[0]})
            assert answer["success"], answer.get("error")
            holder[0] = answer["data"]["refreshToken"]
        swift_refresh = timed(one_refresh, N_REFRESH)
        net_refresh = network_lines(refresh_fn.logs(), mark)
        raw = base64.urlsafe_b64decode(holder[0][4:] + "==")
        uid, sid = str(uuid.UUID(bytes=raw[:16])), raw[16:32].hex()

        base = Boto3Baseline(local)
        base.signin(idp.apple_token(existing))  # warm boto3's connections
        before = base.requests
        it = iter([idp.apple_token(existing) for _ in range(N_SIGNIN)])
        py_in = timed(lambda: base.signin(next(it)), N_SIGNIN)
        py_in_req = (base.requests - before) / N_SIGNIN
        before = base.requests
        it = iter([idp.apple_token(f"001234.{uuid.uuid4().hex}.0003") for _ in range(N_SIGNUP)])
        py_up = timed(lambda: base.signup(next(it)), N_SIGNUP)
        py_up_req = (base.requests - before) / N_SIGNUP
        refresher = Boto3Baseline(local, "auth-refresh")
        refresher.refresh(uid, sid)  # warm
        py_refresh = timed(lambda: refresher.refresh(uid, sid), N_REFRESH)
        py_refresh_req = (refresher.requests - 1) / N_REFRESH

    def row(name, swift, net, py, py_req, target):
        req = statistics.median(r for r, _ in net) if net else float("nan")
        rounds = statistics.median(r for _, r in net) if net else float("nan")
        print(f"{name}")
        print(f"  swift (emulator → function → moto)  median {statistics.median(swift):6.2f} ms  p90 {pct(swift, 90):6.2f} ms   "
              f"requests {req:.0f}, sequential rounds {rounds:.0f}   ({target})")
        print(f"  python boto3 (in-process, no emulator) median {statistics.median(py):6.2f} ms  p90 {pct(py, 90):6.2f} ms   "
              f"requests {py_req:.0f}, sequential rounds {py_req:.0f}")
        print(f"  ratio swift/python: median {statistics.median(swift) / statistics.median(py):.2f} x, p90 {pct(swift, 90) / pct(py, 90):.2f} x")

    print(f"warm operations against local moto; {N_SIGNIN} sign-ins, {N_SIGNUP} sign-ups, {N_REFRESH} refreshes each side")
    row("sign-in, existing user", swift_in, net_in, py_in, py_in_req, "target 5 requests in 2 rounds")
    row("sign-up", swift_up, net_up, py_up, py_up_req, "target ≤ 3 rounds")
    row("refresh", swift_refresh, net_refresh, py_refresh, py_refresh_req, "target ≤ 3 rounds: record + account, then STS, then the rotation")
    cpu = cpu_blocks()
    print(f"\nCPU per operation, at the functions' production log level (INFO), in {BLOCKS} blocks of {N_CPU // BLOCKS} operations,")
    print("each function's block followed by the Python peer's, so that a burst of load on the machine falls on both:")
    print("the function's process (/proc/<pid>/schedstat; the emulator and moto not counted), the Python peer's own")
    print("process (CLOCK_PROCESS_CPUTIME_ID; moto not counted); median of the blocks (lowest block–highest block),")
    print("and the median of each block's ratio to the peer's block after it")
    for name, target in (("sign-in", "(target <= 1.0 ms, <= 0.09 x)"), ("refresh", "(target <= 1.0 ms)")):
        swift, py = cpu[name]
        ratio = statistics.median(a / b for a, b in zip(swift, py))
        print(f"  {name:8s}  swift {statistics.median(swift):6.3f} ms ({min(swift):.3f}–{max(swift):.3f})   python "
              f"{statistics.median(py):6.3f} ms ({min(py):.3f}–{max(py):.3f})   ratio {ratio:.3f} x   {target}")


def cpu_blocks() -> dict[str, tuple[list[float], list[float]]]:
    """{"sign-in"|"refresh": (the function's CPU ms per operation in each block, the peer's)}."""
    local = LocalDeployment(BIN, log_dir=ROOT / "bench-out" / "accounts-cpu-logs", functions=("auth-signin", "auth-refresh"))
    out = {"sign-in": ([], []), "refresh": ([], [])}
    with local:
        fn, refresh_fn, idp = local.emulators["auth-signin"], local.emulators["auth-refresh"], local.idp
        existing = f"001234.{uuid.uuid4().hex}.0004"
        token = fn.invoke({"provider": "apple", "idToken": idp.apple_token(existing)})["data"]["refreshToken"]
        holder = [token]

        def swift_refresh():
            answer = refresh_fn.invoke({"refreshToken": holder[0]})
            assert answer["success"], answer.get("error")
            holder[0] = answer["data"]["refreshToken"]

        def swift_signin(token):
            assert fn.invoke({"provider": "apple", "idToken": token, "intent": "signin"})["success"]

        for _ in range(10):  # warm: connections open, keys cached
            swift_signin(idp.apple_token(existing))
            swift_refresh()
        # The peer rotates a session of its own (rotating the function's would end it).
        peer_token = fn.invoke({"provider": "apple", "idToken": idp.apple_token(existing)})["data"]["refreshToken"]
        raw = base64.urlsafe_b64decode(peer_token[4:] + "==")
        uid, sid = str(uuid.UUID(bytes=raw[:16])), raw[16:32].hex()
        signer, refresher = Boto3Baseline(local), Boto3Baseline(local, "auth-refresh")
        signer.signin(idp.apple_token(existing))
        refresher.refresh(uid, sid)
        signin_cpu, refresh_cpu = function_cpu(fn, "auth-signin"), function_cpu(refresh_fn, "auth-refresh")
        per_block = N_CPU // BLOCKS
        for _ in range(BLOCKS):
            tokens = [idp.apple_token(existing) for _ in range(per_block)]
            it = iter(tokens)
            out["sign-in"][0].append(timed_cpu(lambda: swift_signin(next(it)), per_block, signin_cpu)[1])
            it = iter(tokens)
            out["sign-in"][1].append(timed_cpu(lambda: signer.signin(next(it)), per_block, time.process_time_ns)[1])
            out["refresh"][0].append(timed_cpu(swift_refresh, per_block, refresh_cpu)[1])
            out["refresh"][1].append(timed_cpu(lambda: refresher.refresh(uid, sid), per_block, time.process_time_ns)[1])
    return out


def function_cpu(emulator, executable: str):
    """A reader of the CPU time the function's own process (the emulator's child) has used, in ns."""
    pid = child_pid(emulator.proc.pid, str(BIN / executable))
    if pid is None:
        raise SystemExit(f"50-accounts: no {executable} process under its emulator")
    return lambda: process_cpu_ns(pid)


if __name__ == "__main__":
    sys.exit(run_main(main))
