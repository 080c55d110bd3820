import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from . import grants
from .ports import ExitedBeforeListening, free_port, start_on_free_ports, wait_for_port
from .process import start_process_group, stop_process_group

REGION = "us-east-1"
ACCOUNT = "123456789012"

# The tests' own identity: sets the bucket up, stores SSM parameters, inspects what the functions
# wrote. Never handed to a function: each function runs as its own IAM user whose policy is its
# role's grants derived from template.yaml (grants.py).
ADMIN_POLICY = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["s3:*", "ssm:*", "sts:GetCallerIdentity", "sts:AssumeRole", "iam:PutUserPolicy"], "Resource": "*"}],
}
# The user role's permissions (the session policy narrows them per user on real AWS).
USER_ROLE_POLICY = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["s3:*"], "Resource": "*"}],
}
USER_ROLE = "signin-user-access"


class MotoServer:
    """moto_server on 127.0.0.1 with request signing enforced after setup.

    Setup (a versioned bucket, the user role, one IAM user per function holding exactly its
    role's grants derived from ``template`` (grants.py), and an admin user for the tests) runs while
    INITIAL_NO_AUTH_ACTION_COUNT lets requests through; then ``POST /moto-api/reset-auth`` with
    body ``0`` makes every later request need a valid SigV4 signature from a known key.
    """

    def __init__(self, bucket: str = "signin-identities-local", log_path: str | None = None,
                 template: Path | None = None):
        self.bucket = bucket
        self.log_path = log_path
        self.template = template or grants.TEMPLATE
        self.port = 0
        self.proc = None
        self.access_key_id = None       # the admin (test) identity
        self.secret_access_key = None
        self.function_keys: dict[str, tuple[str, str]] = {}
        self.policies: dict[str, dict] = {}
        self.role_arn = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> "MotoServer":
        start_on_free_ports(lambda: self._launch(timeout))
        self._setup()
        return self

    def _launch(self, timeout: float) -> None:
        self.port = free_port()
        env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="1000", AWS_DEFAULT_REGION=REGION,
                   MOTO_ALLOW_NONEXISTENT_REGION="false")
        # moto_server, through a launcher that makes conditional object writes atomic as S3's are.
        launcher = Path(__file__).with_name("moto_atomic.py")
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = start_process_group([sys.executable, str(launcher), "-H", "127.0.0.1", "-p", str(self.port)], env=env,
                                        stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(self.port, timeout, self.proc)
        except ExitedBeforeListening:
            stop_process_group(self.proc)
            raise

    def _client(self, service: str, **creds):
        import boto3

        return boto3.client(service, region_name=REGION, endpoint_url=self.endpoint,
                            aws_access_key_id=creds.get("key", "AKIASETUPSETUPSETUP0"),
                            aws_secret_access_key=creds.get("secret", "setup-secret-not-checked-yet"),
                            aws_session_token=creds.get("token"))

    def _setup(self) -> None:
        iam = self._client("iam")
        users = {}
        for name in ("signin-test-admin", *(f"fn-{f}" for f in grants.FUNCTIONS)):
            users[name] = iam.create_user(UserName=name)["User"]["Arn"]
        iam.put_user_policy(UserName="signin-test-admin", PolicyName="admin", PolicyDocument=json.dumps(ADMIN_POLICY))
        key = iam.create_access_key(UserName="signin-test-admin")["AccessKey"]
        self.access_key_id, self.secret_access_key = key["AccessKeyId"], key["SecretAccessKey"]
        # The user role trusts every function's identity (the template's trust names the roles of
        # the two that hand out credentials; auth-link's derived grants hold no sts:AssumeRole
        # anyway), and the admin, whose tests of the STS client (AWSClientsTests) assume it.
        principals = [users[f"fn-{f}"] for f in grants.FUNCTIONS] + [users["signin-test-admin"]]
        trust = {"Version": "2012-10-17",
                 "Statement": [{"Effect": "Allow", "Principal": {"AWS": principals}, "Action": "sts:AssumeRole"}]}
        role = iam.create_role(RoleName=USER_ROLE, AssumeRolePolicyDocument=json.dumps(trust))["Role"]
        iam.put_role_policy(RoleName=USER_ROLE, PolicyName="user", PolicyDocument=json.dumps(USER_ROLE_POLICY))
        self.role_arn = role["Arn"]
        self.buckets = [self.bucket]
        self._put_function_policies(iam)
        for f in grants.FUNCTIONS:
            key = iam.create_access_key(UserName=f"fn-{f}")["AccessKey"]
            self.function_keys[f] = (key["AccessKeyId"], key["SecretAccessKey"])
        s3 = self._client("s3")
        s3.create_bucket(Bucket=self.bucket)
        # Versioned, as the template's bucket is (identity files are deleted by version id there).
        s3.put_bucket_versioning(Bucket=self.bucket, VersioningConfiguration={"Status": "Enabled"})
        self.enforce_auth()

    def _put_function_policies(self, iam) -> None:
        """Each function's derived grants, for every bucket this moto serves as an identity bucket."""
        template = grants.load_template(self.template)
        for f in grants.FUNCTIONS:
            statements = []
            for i, bucket in enumerate(self.buckets):
                resolver = grants.Resolver(template, bucket=bucket, account=ACCOUNT, region=REGION,
                                           role_names={"UserAccessRole": USER_ROLE}, parameters=grants.CONFIGURED)
                for st in grants.moto_policy(f, resolver)["Statement"]:
                    if i and "Sid" in st:
                        st["Sid"] += str(i)   # ids are unique within one policy
                    statements.append(st)
            self.policies[f] = {"Version": "2012-10-17", "Statement": statements}
            iam.put_user_policy(UserName=f"fn-{f}", PolicyName="role", PolicyDocument=json.dumps(self.policies[f]))

    def add_bucket(self, bucket: str) -> None:
        """Another (unversioned) identity bucket, which the functions' grants then cover as well."""
        self.s3().create_bucket(Bucket=bucket)
        self.buckets.append(bucket)
        self._put_function_policies(self._client("iam", key=self.access_key_id, secret=self.secret_access_key))

    def enforce_auth(self) -> None:
        req = urllib.request.Request(f"{self.endpoint}/moto-api/reset-auth", data=b"0", method="POST",
                                     headers={"Content-Type": "text/plain"})  # form type would hide the body from moto
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()

    def function_env(self, function: str) -> dict:
        """The environment `function` (auth-signin, auth-refresh, auth-link) needs to reach this
        moto as its own identity, with exactly its role's grants."""
        key, secret = self.function_keys[function]
        return {
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": key,
            "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_ENDPOINT_URL": self.endpoint,
            "IDENTITY_BUCKET": self.bucket,
            "USER_ROLE_ARN": self.role_arn,
        }

    def admin_env(self) -> dict:
        """The same, as the tests' admin identity (tools that are no function, e.g. the micro-benchmarks against moto)."""
        return {"AWS_REGION": REGION, "AWS_ACCESS_KEY_ID": self.access_key_id,
                "AWS_SECRET_ACCESS_KEY": self.secret_access_key, "AWS_ENDPOINT_URL": self.endpoint,
                "IDENTITY_BUCKET": self.bucket, "USER_ROLE_ARN": self.role_arn}

    def assumed_roles(self) -> list[dict]:
        """What STS recorded for each AssumeRole (session name, policy document, access key id),
        from moto's model dump: moto does not enforce session policies, so tests read them here."""
        with urllib.request.urlopen(f"{self.endpoint}/moto-api/data.json", timeout=10) as r:
            data = json.loads(r.read())
        return data.get("sts", {}).get("AssumedRole", [])

    def put_secure_parameter(self, name: str, value: str) -> None:
        """An SSM SecureString (moto's default KMS key), as an operator stores the Sign in with Apple key."""
        self._client("ssm", key=self.access_key_id, secret=self.secret_access_key).put_parameter(
            Name=name, Value=value, Type="SecureString", Overwrite=True)

    def s3(self):
        """A signed boto3 S3 client with the admin key (for tests to set up and inspect the bucket)."""
        return self._client("s3", key=self.access_key_id, secret=self.secret_access_key)

    def client(self, service: str, key: str, secret: str, token: str | None = None):
        return self._client(service, key=key, secret=secret, token=token)

    def stop(self) -> None:
        stop_process_group(self.proc)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
