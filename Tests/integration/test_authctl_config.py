"""Credentials, region and endpoints found as the AWS CLI finds them (issue 23, defect 10;
contract v4): the environment's keys win over any profile (`--profile` alone sets them aside),
and a profile's settings never override what the environment sets. The precedence followed,
botocore's credential chain and config chain, is in
docs/decisions/operator.md, "Credentials in the AWS CLI's order". PYTEST_DONT_REWRITE."""
from authctl_support import operator  # noqa: F401 (fixture)
from service_support import apple_sub, ok

SSO = "sso_start_url = https://example.awsapps.com/start\nsso_region = us-east-1\nsso_account_id = 123456789012\nsso_role_name = Support\n"


def setup_files(operator, config: str, credentials: str = "") -> None:
    (operator.home / ".aws").mkdir(exist_ok=True)
    (operator.home / ".aws" / "config").write_text(config)
    (operator.home / ".aws" / "credentials").write_text(credentials)


def whoami(operator, *args, env) -> dict:
    return operator.json("whoami", *args, env=env)


def test_environment_keys_win_over_an_sso_profile(svc, operator):
    sub = apple_sub()
    uuid = ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))["user"]["serviceUserID"]
    setup_files(operator, "[default]\n" + SSO + "\n[profile support-sso]\n" + SSO)
    done = operator.run("find", f"apple:{sub}")
    assert done.returncode == 0 and done.stdout.strip() == uuid, f"env keys + SSO default: {done.stderr[-300:]}"
    done = operator.run("find", f"apple:{sub}", env=operator.env(AWS_PROFILE="support-sso"))
    assert done.returncode == 0, f"env keys + AWS_PROFILE=<sso>: {done.stderr[-300:]}"
    assert whoami(operator, env=operator.env(AWS_PROFILE="support-sso"))["credentials"] == "environment"
    refused = operator.run("find", f"apple:{sub}", "--profile", "support-sso")
    assert refused.returncode == 64 and "sso" in refused.stderr and "export-credentials" in refused.stderr, \
        "--profile sets the environment's keys aside: the SSO profile is used, and refused by name"


def test_the_environment_region_wins_over_the_profiles(svc, operator):
    sub = apple_sub()
    ok(svc.signin(provider="apple", idToken=svc.idp.apple_token(sub)))
    setup_files(operator, "[default]\nregion = not a region\n")
    env = operator.env(AWS_REGION=None, AWS_DEFAULT_REGION="us-east-1")
    done = operator.run("find", f"apple:{sub}", env=env)
    assert done.returncode == 0, f"the profile's region overrode AWS_DEFAULT_REGION: {done.stderr[-300:]}"
    setup_files(operator, "[default]\nregion = eu-west-3\n")
    assert (whoami(operator, env=env)["region"], whoami(operator, env=env)["regionFrom"]) == (
        "us-east-1", "AWS_DEFAULT_REGION")
    both = operator.env(AWS_REGION="eu-central-1", AWS_DEFAULT_REGION="us-east-1")
    assert whoami(operator, env=both)["region"] == "eu-central-1"
    assert whoami(operator, "--region", "ap-south-1", env=both)["region"] == "ap-south-1"
    assert whoami(operator, env=operator.env(AWS_REGION=None))["region"] == "eu-west-3"


def test_endpoints_and_profile_keys_follow_the_cli_order(svc, operator):
    key, secret, endpoint = operator.identity["key"], operator.identity["secret"], svc.moto.endpoint
    bare = operator.env(AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None, AWS_ENDPOINT_URL=None)
    setup_files(
        operator,
        "[default]\nregion = us-east-1\nendpoint_url = http://127.0.0.1:9\n"
        "[profile local]\nregion = us-east-1\nservices = local-moto\ncredential_process = /bin/false\n"
        f"[services local-moto]\ns3 =\n  endpoint_url = {endpoint}\nsts =\n  endpoint_url = {endpoint}\n"
        "[profile helper]\nregion = us-east-1\ncredential_process = /bin/false\n",
        f"[default]\naws_access_key_id = {key}\naws_secret_access_key = {secret}\n"
        f"[local]\naws_access_key_id = {key}\naws_secret_access_key = {secret}\n")
    # AWS_ENDPOINT_URL beats the profile's endpoint_url (which points nowhere).
    assert whoami(operator, env={**bare, "AWS_ENDPOINT_URL": endpoint})["credentials"] == "profile default (credentials file)"
    # A services section gives each service its endpoint; the credentials file's keys come before credential_process.
    got = whoami(operator, "--profile", "local", env=bare)
    assert (got["arn"], got["credentials"]) == (operator.identity["arn"], "profile local (credentials file)")
    helper = operator.run("whoami", "--profile", "helper", env=bare)
    assert helper.returncode == 64 and "credential_process" in helper.stderr
