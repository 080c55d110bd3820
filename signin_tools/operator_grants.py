"""The operator's grants for the tests, read from template.yaml's `OperatorPolicy` (never copied by
hand), and an operator identity in moto holding exactly them.

A small derivation of its own (issue 20): `${IdentityBucket.Arn}`/`!GetAtt IdentityBucket.Arn`
resolve to the test bucket, and the policy is put in the form moto evaluates, only ever broader:
`?` (one character in IAM) becomes `*` (moto turns only `*` into a regex), and conditions are
dropped (moto passes no request context for S3, so a conditional Allow would deny). The lead folds
this into the functions' grant derivation (signin_tools/standins/grants.py on i18-iam) when both
are merged.
"""
import json
import re
import urllib.request

from .repo import ROOT

REGION = "us-east-1"


def operator_policy(bucket: str, moto_form: bool = True) -> dict:
    from samcli.yamlhelper import yaml_parse  # reads !Sub/!GetAtt as Fn:: dicts

    template = yaml_parse((ROOT / "template.yaml").read_text())
    document = template["Resources"]["OperatorPolicy"]["Properties"]["PolicyDocument"]
    arn = f"arn:aws:s3:::{bucket}"

    def resolve(value):
        if isinstance(value, dict):
            if "Fn::GetAtt" in value:
                target = value["Fn::GetAtt"]
                target = target.split(".") if isinstance(target, str) else target
                assert target == ["IdentityBucket", "Arn"], f"OperatorPolicy names {target}"
                return arn
            if "Fn::Sub" in value:
                return value["Fn::Sub"].replace("${IdentityBucket.Arn}", arn).replace("${IdentityBucket}", bucket)
            if "Ref" in value:
                assert value["Ref"] == "IdentityBucket", f"OperatorPolicy refers to {value['Ref']}"
                return bucket
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value

    resolved = resolve(document)
    if moto_form:
        for statement in resolved["Statement"]:
            statement.pop("Condition", None)
            resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
            statement["Resource"] = [re.sub(r"\?+", "*", r) for r in resources]
        # Unpatched moto authorizes a whole DeleteObjects request once, as s3:DeleteObject on the
        # bucket's ARN (S3 checks each key), and refuses every key when that fails. i18-iam's
        # moto_iam patch evaluates per key as S3 does; once merged, this line goes.
        resolved["Statement"].append({"Sid": "MotoDeleteObjectsOnTheBucket", "Effect": "Allow",
                                      "Action": "s3:DeleteObject", "Resource": [arn]})
    return resolved


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
