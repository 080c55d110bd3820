"""The operator's grants for the tests, derived from template.yaml's `OperatorPolicy` by the same
derivation as the functions' (signin_tools/standins/grants.py: intrinsics resolved as
CloudFormation would, then the form moto evaluates, only ever broader), and an operator identity
in moto holding exactly them."""
import json
import urllib.request

from .standins.grants import CONFIGURED, Resolver, load_template, managed_policy_statements, widened_for_moto

REGION = "us-east-1"


def operator_policy(bucket: str, moto_form: bool = True) -> dict:
    statements = managed_policy_statements("OperatorPolicy", Resolver(load_template(), bucket, parameters=CONFIGURED))
    return {"Version": "2012-10-17", "Statement": widened_for_moto(statements) if moto_form else statements}


def _lift_auth(moto, count: str) -> None:
    req = urllib.request.Request(f"{moto.endpoint}/moto-api/reset-auth", data=count.encode(), method="POST",
                                 headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(req, timeout=10) as r:
        r.read()


def create_operator(moto, name: str = "signin-operator") -> dict:
    """An IAM user holding exactly the operator policy, and a role with the same policy that the
    user may assume (for the session-token profile test). Set up in the few requests moto lets
    through unsigned, then signing is enforced again."""
    import boto3

    _lift_auth(moto, "8")
    try:
        iam = boto3.client("iam", region_name=REGION, endpoint_url=moto.endpoint,
                           aws_access_key_id="AKIASETUPSETUPSETUP0", aws_secret_access_key="setup")
        user = iam.create_user(UserName=name)["User"]
        policy = json.dumps(operator_policy(moto.bucket))
        iam.put_user_policy(UserName=name, PolicyName="operator", PolicyDocument=policy)
        trust = {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": user["Arn"]}, "Action": "sts:AssumeRole"}]}
        role = iam.create_role(RoleName=f"{name}-role", AssumeRolePolicyDocument=json.dumps(trust))["Role"]
        iam.put_role_policy(RoleName=f"{name}-role", PolicyName="operator", PolicyDocument=policy)
        # Only for the test's session-token profile: the user may become the role.
        iam.put_user_policy(UserName=name, PolicyName="assume-operator-role", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": role["Arn"]}]}))
        key = iam.create_access_key(UserName=name)["AccessKey"]
    finally:
        _lift_auth(moto, "0")
    return {"arn": user["Arn"], "key": key["AccessKeyId"], "secret": key["SecretAccessKey"], "role_arn": role["Arn"]}
