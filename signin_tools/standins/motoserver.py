import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from .ports import ExitedBeforeListening, free_port, start_on_free_ports, wait_for_port
from .process import stop_process_group

REGION = "us-east-1"
ACCOUNT = "123456789012"

# What the functions' own identity may do in moto (moto evaluates IAM policies once auth is on).
FUNCTION_POLICY = {
    "Version": "2012-10-17",
    "Statement": [
        {"Effect": "Allow", "Action": ["s3:*"], "Resource": "*"},
        {"Effect": "Allow", "Action": ["sts:AssumeRole"], "Resource": "*"},
        # The Sign in with Apple key is read from SSM; tests store it with the same identity.
        {"Effect": "Allow", "Action": ["ssm:GetParameter", "ssm:PutParameter"], "Resource": "*"},
    ],
}
# The user role's permissions (the session policy narrows them per user on real AWS).
USER_ROLE_POLICY = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": ["s3:*"], "Resource": "*"}],
}


class MotoServer:
    """moto_server on 127.0.0.1 with request signing enforced after setup.

    Setup (a versioned bucket, user role, an IAM user with an access key) runs while
    INITIAL_NO_AUTH_ACTION_COUNT lets requests through; then ``POST /moto-api/reset-auth`` with
    body ``0`` makes every later request need a valid SigV4 signature from a known key.
    """

    def __init__(self, bucket: str = "signin-identities-local", log_path: str | None = None):
        self.bucket = bucket
        self.log_path = log_path
        self.port = 0
        self.proc = None
        self.access_key_id = None
        self.secret_access_key = None
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
        self.proc = subprocess.Popen([sys.executable, str(launcher), "-H", "127.0.0.1", "-p", str(self.port)], env=env,
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
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
        iam.create_user(UserName="signin-function")
        iam.put_user_policy(UserName="signin-function", PolicyName="function", PolicyDocument=json.dumps(FUNCTION_POLICY))
        key = iam.create_access_key(UserName="signin-function")["AccessKey"]
        self.access_key_id, self.secret_access_key = key["AccessKeyId"], key["SecretAccessKey"]
        # The user role trusts only the functions' own identity (as the template's trust names the
        # execution roles); moto checks the caller's ARN against it.
        user_arn = iam.get_user(UserName="signin-function")["User"]["Arn"]
        trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": user_arn}, "Action": "sts:AssumeRole"}]}
        role = iam.create_role(RoleName="signin-user-access", AssumeRolePolicyDocument=json.dumps(trust))["Role"]
        iam.put_role_policy(RoleName="signin-user-access", PolicyName="user", PolicyDocument=json.dumps(USER_ROLE_POLICY))
        self.role_arn = role["Arn"]
        s3 = self._client("s3")
        s3.create_bucket(Bucket=self.bucket)
        # Versioned, as the template's bucket is (identity files are deleted by version id there).
        s3.put_bucket_versioning(Bucket=self.bucket, VersioningConfiguration={"Status": "Enabled"})
        self.enforce_auth()

    def enforce_auth(self) -> None:
        req = urllib.request.Request(f"{self.endpoint}/moto-api/reset-auth", data=b"0", method="POST",
                                     headers={"Content-Type": "text/plain"})  # form type would hide the body from moto
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()

    def function_env(self) -> dict:
        """The environment a function needs to reach this moto as its own identity."""
        return {
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": self.access_key_id,
            "AWS_SECRET_ACCESS_KEY": self.secret_access_key,
            "AWS_ENDPOINT_URL": self.endpoint,
            "IDENTITY_BUCKET": self.bucket,
            "USER_ROLE_ARN": self.role_arn,
        }

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
        """A signed boto3 S3 client with the function's own key (for tests to inspect the bucket)."""
        return self._client("s3", key=self.access_key_id, secret=self.secret_access_key)

    def client(self, service: str, key: str, secret: str, token: str | None = None):
        return self._client(service, key=key, secret=secret, token=token)

    def stop(self) -> None:
        stop_process_group(self.proc)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
