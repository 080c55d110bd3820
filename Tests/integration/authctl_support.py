"""Running `authctl` (the real executable) against moto as an operator holding exactly
template.yaml's OperatorPolicy (signin_tools/operator_grants.py)."""
import json
import subprocess

import pytest

from conftest import executable
from signin_tools.operator_grants import create_operator

_OPERATOR = {}


@pytest.fixture
def operator(moto, tmp_path):
    """The operator's identity (created once per moto) and a clean HOME for its config files."""
    if moto.endpoint not in _OPERATOR:
        _OPERATOR[moto.endpoint] = create_operator(moto)
    return Operator(moto, _OPERATOR[moto.endpoint], tmp_path)


@pytest.fixture
def own_bucket(moto, tmp_path):
    """A bucket of this test's own (versioned), with an operator holding the policy for it: for a
    whole-bucket `check`, which other tests' deliberate leftovers in the shared bucket would fail."""
    import uuid as uuidlib

    name = f"signin-check-{uuidlib.uuid4().hex[:12]}"
    moto.add_bucket(name)   # the functions' grants (derived from the template) cover it too
    moto.s3().put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    view = BucketView(moto, name)
    return Operator(view, create_operator(view, name=f"operator-{name[-12:]}"), tmp_path)


class BucketView:
    """The shared moto, seen through another bucket."""

    def __init__(self, moto, bucket: str):
        self.moto, self.bucket, self.endpoint = moto, bucket, moto.endpoint

    def s3(self):
        return self.moto.s3()


class Operator:
    def __init__(self, moto, identity: dict, tmp_path):
        self.moto, self.identity, self.home = moto, identity, tmp_path / "home"
        self.home.mkdir(exist_ok=True)

    def env(self, **extra) -> dict:
        env = {"HOME": str(self.home), "PATH": "/usr/bin:/bin", "AWS_REGION": "us-east-1",
               "AWS_ENDPOINT_URL": self.moto.endpoint, "IDENTITY_BUCKET": self.moto.bucket,
               "AWS_ACCESS_KEY_ID": self.identity["key"], "AWS_SECRET_ACCESS_KEY": self.identity["secret"]}
        env.update(extra)
        return {k: v for k, v in env.items() if v is not None}

    def run(self, *args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([executable("authctl"), *args], env=env or self.env(), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=timeout)

    def ok(self, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        done = self.run(*args, env=env)
        assert done.returncode == 0, f"authctl {args[0]} exited {done.returncode}: {done.stderr[-2000:]}"
        return done

    def json(self, *args: str, env: dict | None = None):
        return json.loads(self.ok(*args, "--json", env=env).stdout)

    def audits(self, done: subprocess.CompletedProcess) -> list[dict]:
        out = []
        for line in done.stderr.splitlines():
            if line.startswith("{"):
                value = json.loads(line)
                if value.get("audit") == "authctl":
                    out.append(value)
        return out


def versions(svc) -> list[tuple]:
    """Every version and delete marker of the bucket, with its ETag: any write shows here."""
    s3 = svc.moto.s3()
    out = []
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=svc.moto.bucket):
        out += [(v["Key"], v["VersionId"], v["ETag"]) for v in page.get("Versions", [])]
        out += [(m["Key"], m["VersionId"], "marker") for m in page.get("DeleteMarkers", [])]
    return sorted(out)
