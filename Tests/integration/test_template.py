"""template.yaml: `sam validate --lint`, and least privilege read from the template itself.

Every Allow statement in every identity policy is checked: no wildcard in an action, no
NotAction/NotResource, and each resource is one of the few the design allows, each for its own
kind of action (objects under identities/ or users/ for S3 object actions, the bucket for
s3:ListBucket, the user-access role for sts:AssumeRole, the role's own log group, the three
functions for lambda:InvokeFunction). A literal ARN or "*" anywhere is a failure. The bucket
policy (only Deny: TLS, and PutObject on create-only keys without If-None-Match) and the session
lifecycle rule are read from the template too; resource patterns are matched as IAM does."""
import os
import re
import subprocess
from pathlib import Path

import pytest
from samcli.yamlhelper import yaml_parse

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = yaml_parse((ROOT / "template.yaml").read_text())
RES = TEMPLATE["Resources"]

FUNCTIONS = {"AuthSigninFunction": "AuthSigninRole", "AuthRefreshFunction": "AuthRefreshRole", "AuthLinkFunction": "AuthLinkRole"}
LOG_GROUPS = {"AuthSigninRole": "AuthSigninLogGroup", "AuthRefreshRole": "AuthRefreshLogGroup", "AuthLinkRole": "AuthLinkLogGroup"}

BUCKET = ("getatt", "IdentityBucket")
ARN = "${IdentityBucket.Arn}/"
UUID = "????????-????-????-????-????????????"   # IAM `?` = one character: the canonical UUID's shape
IDENTITIES = ARN + "identities/*"     # the operator's: identity files and app transfers' files
IDENTITY_FILES = {ARN + f"identities/{p}/*" for p in ("apple", "google", "firebase")}
APPLE_TRANSFERS = ARN + "identities/apple-transfer/*"   # contract v4: an app transfer's files
TRANSFER_PROGRESS = ARN + "operator/apple-transfer/*"   # authctl apple-transfer prepare's place
ACCOUNT = ARN + f"users/{UUID}/account/*"
ACCOUNT_DOCUMENTS = {ARN + f"users/{UUID}/account/profile.json", ARN + f"users/{UUID}/account/providers.json"}
SESSIONS = ARN + f"users/{UUID}/account/sessions/*"
MARKERS = {ARN + f"users/{UUID}/" + sub for sub in ("", "photos/", "thumbnails/", "metadata/", "account/")}
ACCOUNT_ALL = ARN + f"users/{UUID}/*"          # the purge: every object of one account
DELETIONS = ARN + "deletions/*"
PURCHASE_CLAIMS = ARN + "purchases/apple/*"
PURCHASE_STATES = ARN + "purchases/apple-state/*"
NOTIFICATIONS = ARN + "notifications/*"
SUSPENSIONS = ARN + "suspensions/google/*"
OBJECT_PREFIXES = {IDENTITIES, *IDENTITY_FILES, APPLE_TRANSFERS, TRANSFER_PROGRESS, ACCOUNT, *ACCOUNT_DOCUMENTS, SESSIONS, *MARKERS, ACCOUNT_ALL, DELETIONS, PURCHASE_CLAIMS,
                   PURCHASE_STATES, NOTIFICATIONS, SUSPENSIONS,
                   ARN + "users/*"}   # users/* only for the user-access role
APPLE_KEY_PARAMETER = "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${ApplePrivateKeyParameter}"
APPSTORE_API_KEY_PARAMETER = ("arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:"
                              "parameter${AppStoreApiPrivateKeyParameter}")
S3_OBJECT_ACTIONS = {"s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion", "s3:PutObjectTagging",
                     "s3:AbortMultipartUpload"}
CONTRACT_ENV = {"IDENTITY_BUCKET", "USER_ROLE_ARN", "APPLE_AUDIENCES", "APPLE_WEB_AUDIENCES", "GOOGLE_AUDIENCES", "CREDENTIALS_DURATION_SECONDS",
                "REFRESH_TOKEN_TTL_SECONDS", "RECENT_AUTH_SECONDS", "REFRESH_REUSE_GRACE_SECONDS",
                "FIREBASE_PROJECT_ID", "FIREBASE_JWKS_URL", "FIREBASE_ALLOW_ANONYMOUS", "METRICS_NAMESPACE"}

APPLE_REVOCATION_ENV = {"APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY_PARAMETER", "APPLE_CLIENT_ID"}
RISC_ENV = {"GOOGLE_RISC_JWKS_URL"}
PURCHASE_ENV = {"APPSTORE_BUNDLE_ID", "APPSTORE_ENVIRONMENTS", "APPSTORE_APP_APPLE_ID", "APPSTORE_PRODUCTS",
                "APPSTORE_API_KEY_ID", "APPSTORE_API_ISSUER_ID", "APPSTORE_API_PRIVATE_KEY_PARAMETER"}

# Exactly what each function's code does (the account flows, Sources/Account*): (action, resource).
EXPECTED_FUNCTION_GRANTS = {
    "AuthSigninRole": {
        # read, create (If-None-Match), remove a stale file by version or with If-Match
        *{(a, f) for a in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion")
          for f in IDENTITY_FILES},
        # an app transfer's file: read, removed after the re-key; never created (contract v4)
        *{(a, APPLE_TRANSFERS) for a in ("s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion")},
        *{("s3:PutObject", m) for m in MARKERS},                       # the five sign-up markers
        *{("s3:GetObject", d) for d in ACCOUNT_DOCUMENTS},               # reads profile and providers only
        ("s3:PutObject", ACCOUNT),                                      # creates profile, providers, session
        # tagged records; its own stale one, and every version of it under a purged account (issue 18, defect 1)
        *{(a, SESSIONS) for a in ("s3:PutObjectTagging", "s3:DeleteObject", "s3:DeleteObjectVersion")},
        ("s3:ListBucketVersions", BUCKET),                              # ... listed under sessions/ only
        ("s3:GetObject", DELETIONS),                                    # half-made or deleted? (defect 1)
        ("s3:GetObject", SUSPENSIONS),                                  # Google's suspension of the identity (issue 25)
        ("s3:ListBucket", BUCKET), ("sts:AssumeRole", ("getatt", "UserAccessRole")),
        ("logs:CreateLogStream", ("getatt", "AuthSigninLogGroup")), ("logs:PutLogEvents", ("getatt", "AuthSigninLogGroup")),
    },
    "AuthRefreshRole": {
        *{(a, ACCOUNT) for a in ("s3:GetObject", "s3:PutObject")},
        *{(a, SESSIONS) for a in ("s3:PutObjectTagging", "s3:DeleteObject")},   # tagged records; dead ones cleaned by list
        ("s3:ListBucket", BUCKET), ("sts:AssumeRole", ("getatt", "UserAccessRole")),
        ("logs:CreateLogStream", ("getatt", "AuthRefreshLogGroup")), ("logs:PutLogEvents", ("getatt", "AuthRefreshLogGroup")),
    },
    "AuthLinkRole": {
        *{(a, f) for a in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion")
          for f in IDENTITY_FILES},
        # an app transfer's files: removed by deletion and unlink, read when a link finishes a re-key
        *{(a, APPLE_TRANSFERS) for a in ("s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion")},
        *{(a, ACCOUNT) for a in ("s3:GetObject", "s3:PutObject")},
        ("s3:PutObjectTagging", SESSIONS),                              # a reuse revocation rewrites the tagged record
        ("s3:ListBucket", BUCKET),                                      # 404s; the scheduled run lists deletions/
        ("s3:ListBucketVersions", BUCKET),                              # the purge (prefix users/<uuid>/ only)
        *{(a, ACCOUNT_ALL) for a in ("s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload")},   # the purge
        ("s3:ListBucketMultipartUploads", BUCKET),                      # ... and its incomplete uploads
        *{(a, DELETIONS) for a in ("s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject")},   # deletion records (an Apple-started one dropped)
        *{(a, PURCHASE_CLAIMS) for a in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion")},   # claims: create-only; released by version
        *{(a, PURCHASE_STATES) for a in ("s3:GetObject", "s3:PutObject")},   # each purchase's newest state, never deleted
        *{(a, NOTIFICATIONS) for a in ("s3:GetObject", "s3:PutObject")},   # at-most-once markers
        *{(a, SUSPENSIONS) for a in ("s3:GetObject", "s3:PutObject")},   # Google's suspensions: written by its events, never deleted
        ("ssm:GetParameter", APPLE_KEY_PARAMETER),                      # the Sign in with Apple key, when configured
        ("ssm:GetParameter", APPSTORE_API_KEY_PARAMETER),               # the In-App Purchase key, when configured
        ("logs:CreateLogStream", ("getatt", "AuthLinkLogGroup")), ("logs:PutLogEvents", ("getatt", "AuthLinkLogGroup")),
        ("sqs:SendMessage", ("getatt", "ScheduledRunDeadLetterQueue")),   # a failed asynchronous (scheduled) invocation
    },
}

SAMPLE_UUID = "0f8fad5b-d9cb-469f-a165-70867728950e"
# The user's own data: no function role may read, write or delete any of it.
USER_DATA_KEYS = ["users/x/photos/a.jpg", f"users/{SAMPLE_UUID}/photos/a.jpg", f"users/{SAMPLE_UUID}/photos/2024/a.jpg",
                  f"users/{SAMPLE_UUID}/photos/account/a.jpg", f"users/{SAMPLE_UUID}/photos/x/account/sessions/a.json",
                  f"users/{SAMPLE_UUID}/thumbnails/a.jpg", f"users/{SAMPLE_UUID}/metadata/a.json",
                  f"users/{SAMPLE_UUID}/photos/a/"]


def as_list(v):
    return v if isinstance(v, list) else [v]


def resource_key(r):
    """A comparable form of a policy resource: the Sub string, ("getatt", logical id), or the literal."""
    if isinstance(r, dict) and "Fn::Sub" in r:
        return r["Fn::Sub"] if isinstance(r["Fn::Sub"], str) else r["Fn::Sub"][0]
    if isinstance(r, dict) and "Fn::GetAtt" in r:
        att = r["Fn::GetAtt"]
        logical, attr = (att.split(".", 1) if isinstance(att, str) else att)
        assert attr == "Arn", f"unexpected attribute {attr} in a policy resource"
        return ("getatt", logical)
    return ("literal", r if isinstance(r, str) else repr(r))


def iam_match(pattern, value):
    """IAM resource matching: `*` matches any run of characters ("/" included), `?` exactly one."""
    rx = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(rx, value, flags=re.DOTALL) is not None


def object_pattern(key):
    """The object-key pattern of a resource key, or None when it names no objects of the bucket."""
    if isinstance(key, str) and key.startswith(ARN):
        return key[len(ARN):]
    if key == ("literal", "*"):
        return "*"
    return None


def identity_policies():
    """(owner logical id, roles it applies to, policy document) for every identity policy."""
    for lid, res in RES.items():
        props = res.get("Properties", {})
        if res["Type"] == "AWS::IAM::Role":
            for p in props.get("Policies", []):
                if "Fn::If" in p:   # a policy present under a condition: checked as if it were on
                    condition, present, absent = p["Fn::If"]
                    assert absent == {"Ref": "AWS::NoValue"}, f"{lid}: conditional policy {condition} has an else branch"
                    p = present
                yield lid, [lid], p["PolicyDocument"]
            assert not props.get("ManagedPolicyArns"), f"{lid} attaches managed policies: {props['ManagedPolicyArns']}"
        elif res["Type"] in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
            roles = [r["Ref"] for r in props.get("Roles", [])]
            yield lid, roles, props["PolicyDocument"]
        elif res["Type"] == "AWS::Serverless::Function":
            assert "Policies" not in props, f"{lid}: SAM policy templates would create another role"
            assert "Role" in props, f"{lid} must use its own least-privilege role"


def grants():
    """(owner, roles, action, resource key, statement) for every Allow."""
    for owner, roles, doc in identity_policies():
        for st in as_list(doc["Statement"]):
            if "Fn::If" in st:   # a statement present under a condition: checked as if it were on
                condition, present, absent = st["Fn::If"]
                assert absent == {"Ref": "AWS::NoValue"}, f"{owner}: conditional statement {condition} has an else branch"
                st = present
            assert not {"NotAction", "NotResource", "NotPrincipal"} & set(st), f"{owner}: Not* element in {st}"
            if st["Effect"] != "Allow":
                continue
            for action in as_list(st["Action"]):
                for r in as_list(st["Resource"]):
                    yield owner, roles, action, resource_key(r), st


def test_sam_validate_lint():
    env = dict(os.environ, SAM_CLI_TELEMETRY="0")
    r = subprocess.run([str(ROOT / ".venv" / "bin" / "sam"), "validate", "--lint", "--region", "us-east-1",
                        "--template-file", str(ROOT / "template.yaml")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_wildcard_action_or_resource_wider_than_allowed():
    seen = 0
    for owner, roles, action, key, st in grants():
        seen += 1
        assert "*" not in action and "?" not in action, f"{owner}: wildcard action {action}"
        if key in (APPLE_KEY_PARAMETER, APPSTORE_API_KEY_PARAMETER):
            assert action == "ssm:GetParameter" and (roles == ["AuthLinkRole"] or (
                owner == "OperatorPolicy" and key == APPLE_KEY_PARAMETER)), f"{owner}: {action} on an Apple key"
        elif isinstance(key, str):
            assert key in OBJECT_PREFIXES, f"{owner}: resource {key} is not one of the object patterns this design allows"
            assert key != ACCOUNT_ALL or ((roles == ["AuthLinkRole"] or owner == "OperatorPolicy")
                                          and action in ("s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload")), \
                f"{owner}: {action} on every object of an account (only the purge deletes there: auth-link's, authctl's)"
            assert action in S3_OBJECT_ACTIONS, f"{owner}: {action} on objects {key}"
        elif key == BUCKET:
            assert action in ("s3:ListBucket", "s3:ListBucketVersions", "s3:ListBucketMultipartUploads"), \
                f"{owner}: {action} on the bucket itself"
        elif key == ("getatt", "UserAccessRole"):
            assert action == "sts:AssumeRole", f"{owner}: {action} on the user-access role"
        elif key[0] == "getatt" and key[1] in LOG_GROUPS.values():
            assert action in ("logs:CreateLogStream", "logs:PutLogEvents"), f"{owner}: {action} on {key[1]}"
            assert all(LOG_GROUPS.get(role) == key[1] for role in roles), f"{owner}: {roles} write another function's logs ({key[1]})"
        elif key == ("getatt", "ScheduledRunDeadLetterQueue"):
            assert action == "sqs:SendMessage" and roles == ["AuthLinkRole"], f"{owner}: {action} on the dead-letter queue"
        elif key[0] == "getatt" and key[1] in FUNCTIONS:
            assert action == "lambda:InvokeFunction", f"{owner}: {action} on {key[1]}"
        else:
            pytest.fail(f"{owner}: resource {key} for {action} is not one this design allows")
    assert seen > 10


def test_each_function_role_grants_exactly_what_its_code_uses():
    actual = {role: set() for role in EXPECTED_FUNCTION_GRANTS}
    for owner, roles, action, key, st in grants():
        for role in roles:
            if role in actual:
                actual[role].add((action, key))
    assert actual == EXPECTED_FUNCTION_GRANTS


def test_function_roles_trust_only_lambda():
    for role in FUNCTIONS.values():
        trust = RES[role]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        assert trust == [{"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]
        assert "RoleName" not in RES[role]["Properties"]


def test_user_role_trusts_only_the_functions_that_hand_out_credentials_and_covers_users_only():
    props = RES["UserAccessRole"]["Properties"]
    trust = as_list(props["AssumeRolePolicyDocument"]["Statement"])
    assert len(trust) == 1 and trust[0]["Effect"] == "Allow" and trust[0]["Action"] == "sts:AssumeRole"
    principals = {resource_key(p) for p in as_list(trust[0]["Principal"]["AWS"])}
    assert principals == {("getatt", "AuthSigninRole"), ("getatt", "AuthRefreshRole")}
    assert props.get("MaxSessionDuration", 3600) <= 3600
    user = {(a, k) for o, _, a, k, _ in grants() if o == "UserAccessRole"}
    assert user == {("s3:GetObject", "${IdentityBucket.Arn}/users/*"), ("s3:PutObject", "${IdentityBucket.Arn}/users/*"),
                    ("s3:DeleteObject", "${IdentityBucket.Arn}/users/*"), ("s3:ListBucket", BUCKET)}
    for o, _, a, k, st in grants():
        if o == "UserAccessRole" and a == "s3:ListBucket":
            assert st["Condition"] == {"StringLike": {"s3:prefix": "users/*"}}


def test_only_signin_and_refresh_may_assume_the_user_role():
    holders = set()
    for owner, roles, action, key, st in grants():
        if action == "sts:AssumeRole":
            holders.update(roles)
    assert holders == {"AuthSigninRole", "AuthRefreshRole"}


def test_identity_bucket_is_private_encrypted_versioned_and_tls_only():
    props = RES["IdentityBucket"]["Properties"]
    assert all(props["PublicAccessBlockConfiguration"][k] is True
               for k in ("BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"))
    sse = props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"]
    assert sse["SSEAlgorithm"] in ("AES256", "aws:kms")
    assert props["VersioningConfiguration"]["Status"] == "Enabled"
    assert RES["IdentityBucket"].get("DeletionPolicy") == "Retain"
    statements = RES["IdentityBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    tls = [s for s in statements if s.get("Condition", {}).get("Bool", {}).get("aws:SecureTransport") == "false"]
    assert len(tls) == 1 and tls[0]["Effect"] == "Deny" and tls[0]["Principal"] == "*"
    assert {resource_key(r) for r in tls[0]["Resource"]} == {BUCKET, "${IdentityBucket.Arn}/*"}
    assert all(s["Effect"] == "Deny" for s in statements), "the bucket policy only denies"



def test_iam_matcher_reads_patterns_as_iam_does():
    assert iam_match("users/*/account/*", "users/u/photos/account/a.jpg")       # `*` spans "/"
    assert iam_match("users/*/account/*", "users/u/account/")                   # and may be empty
    assert not iam_match("users/*/account/*", "users/u/photos/a.jpg")
    assert iam_match(f"users/{UUID}/account/*", f"users/{SAMPLE_UUID}/account/sessions/a.json")
    assert not iam_match(f"users/{UUID}/account/*", f"users/{SAMPLE_UUID}/photos/account/a.jpg")
    assert not iam_match(f"users/{UUID}/", f"users/{SAMPLE_UUID}/photos/")      # `?` is one character, no more
    assert iam_match("a?c", "a/c") and not iam_match("a?c", "ac")


def test_signin_role_cannot_read_photos():
    """Issue 9: auth-signin reads only what it needs (the account folder), not photos."""
    reads = [(a, key) for _, roles, a, key, _ in grants() if "AuthSigninRole" in roles and a.startswith("s3:Get")]
    assert reads, "auth-signin reads identity and account files"
    for action, key in reads:
        pattern = object_pattern(key)
        for photo in ("users/x/photos/a.jpg", f"users/{SAMPLE_UUID}/photos/a.jpg", f"users/{SAMPLE_UUID}/photos/account/a.jpg"):
            assert not (pattern and iam_match(pattern, photo)), f"auth-signin: {action} on {key} admits {photo}"
    # and what it must read is still readable
    for needed in (f"users/{SAMPLE_UUID}/account/profile.json", f"users/{SAMPLE_UUID}/account/providers.json", "identities/apple/001.abc"):
        assert any(a == "s3:GetObject" and iam_match(object_pattern(k) or "", needed) for a, k in reads), needed


def test_no_function_role_touches_the_users_own_data():
    """No function reads or writes a user's photos; only auth-link's purge deletes them (delete)."""
    for _, roles, action, key, _ in grants():
        pattern = object_pattern(key)
        if not pattern or not set(roles) & set(EXPECTED_FUNCTION_GRANTS):
            continue
        if roles == ["AuthLinkRole"] and key == ACCOUNT_ALL and action in ("s3:DeleteObject", "s3:DeleteObjectVersion",
                                                                           "s3:AbortMultipartUpload"):
            continue
        for data in USER_DATA_KEYS:
            assert not iam_match(pattern, data), f"{roles}: {action} on {key} admits {data}"
    # the markers are the only keys outside account/ a function may write, and each is exactly one key
    for marker in MARKERS:
        assert "*" not in marker


def bucket_policy_statements():
    return as_list(RES["IdentityBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"])


def denied_by_bucket_policy(action, key, headers):
    """Whether one of the bucket policy's statements denies this object request over TLS 1.3."""
    context = {"aws:SecureTransport": "true", "s3:TlsVersion": "1.3", **{f"s3:{h.lower()}": "*" for h in headers}}
    for st in bucket_policy_statements():
        if st["Effect"] != "Deny" or not any(iam_match(a, action) for a in as_list(st["Action"])):
            continue
        if not any(iam_match(object_pattern(resource_key(r)) or "\0", key) for r in as_list(st["Resource"])):
            continue
        holds = True
        for op, conds in st.get("Condition", {}).items():
            for k, v in conds.items():
                if op == "Null":
                    holds &= (k not in context) == (v == "true")
                elif op == "Bool":
                    holds &= context.get(k) == v
                elif op == "NumericLessThan":
                    holds &= float(context[k]) < float(v)
                else:
                    pytest.fail(f"condition operator {op} not modelled here")
        if holds:
            return True
    return False


def test_bucket_policy_denies_unconditional_writes_of_identities_and_purchases():
    """Issue 9: identities/* and purchase claims are never overwritten, even by a future bug; issue 18:
    each purchase's state (purchases/apple-state/) is updated in place, so the guard spares it."""
    statements = bucket_policy_statements()
    assert all(s["Effect"] == "Deny" for s in statements), "the bucket policy grants nothing"
    assert not any(s["Effect"] == "Allow" for s in statements)
    guards = [s for s in statements if "s3:if-none-match" in s.get("Condition", {}).get("Null", {})]
    assert len(guards) == 1, guards
    (st,) = guards
    assert st["Effect"] == "Deny" and st["Principal"] == "*"
    assert as_list(st["Action"]) == ["s3:PutObject"]
    assert {resource_key(r) for r in as_list(st["Resource"])} == {IDENTITIES, PURCHASE_CLAIMS}
    assert st["Condition"] == {"Null": {"s3:if-none-match": "true"}}
    # what it means for requests
    for key in ("identities/google/1234567890", "purchases/apple/2000000123456789"):
        assert denied_by_bucket_policy("s3:PutObject", key, [])
        assert denied_by_bucket_policy("s3:PutObject", key, ["If-Match"])
        assert not denied_by_bucket_policy("s3:PutObject", key, ["If-None-Match"])
        assert not denied_by_bucket_policy("s3:DeleteObjectVersion", key, [])
    for key in (f"users/{SAMPLE_UUID}/account/profile.json", f"users/{SAMPLE_UUID}/photos/a.jpg", "deletions/x.json",
                "purchases/apple-state/2000000123456789.json"):
        assert not denied_by_bucket_policy("s3:PutObject", key, []), key
        assert not denied_by_bucket_policy("s3:PutObject", key, ["If-Match"]), key


def test_session_records_expire_by_tag_after_the_refresh_lifetime():
    params = TEMPLATE["Parameters"]
    rules = RES["IdentityBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]
    tagged = [r for r in rules if {"Key": "record", "Value": "session"} in r.get("TagFilters", [])]
    assert len(tagged) == 1, tagged
    (rule,) = tagged
    assert rule["Status"] == "Enabled"
    assert rule["TagFilters"] == [{"Key": "record", "Value": "session"}]
    assert rule.get("Prefix", "users/") == "users/", "the tag must never expire identities/ or purchases/"
    assert rule["ExpirationInDays"] == {"Ref": "SessionRecordRetentionDays"}
    assert rule["NoncurrentVersionExpiration"] == {"NoncurrentDays": 1}
    assert "ExpiredObjectDeleteMarker" not in rule, "S3 refuses it together with a tag filter"
    p = params["SessionRecordRetentionDays"]
    assert p["Type"] == "Number" and p["Default"] == 31 and p["MinValue"] == 2 and p["MaxValue"] == 3660
    ttl = params["RefreshTokenTtlSeconds"]["Default"]
    assert ttl == 2592000
    assert p["Default"] > ttl / 86400, "a live (refreshed) session must never be expired by the lifecycle rule"
    # the general rule stays: old versions, expired delete markers, incomplete uploads
    (old,) = [r for r in rules if r["Id"] == "ExpireOldVersions"]
    assert old["Status"] == "Enabled" and not old.get("TagFilters") and not old.get("Prefix")
    assert old["NoncurrentVersionExpiration"] == {"NoncurrentDays": {"Ref": "NoncurrentVersionRetentionDays"}}
    assert old["ExpiredObjectDeleteMarker"] is True
    assert old["AbortIncompleteMultipartUpload"] == {"DaysAfterInitiation": 1}

def test_functions_run_the_bootstrap_on_provided_al2023_with_the_contract_environment():
    glob = TEMPLATE["Globals"]["Function"]
    assert glob["Runtime"] == "provided.al2023" and glob["Handler"] == "bootstrap"
    assert glob["Architectures"] == [{"Ref": "Architecture"}]
    assert TEMPLATE["Parameters"]["Architecture"]["Default"] == "x86_64"
    assert set(TEMPLATE["Parameters"]["Architecture"]["AllowedValues"]) == {"x86_64", "arm64"}
    assert set(glob["Environment"]["Variables"]) == CONTRACT_ENV
    link_env = RES["AuthLinkFunction"]["Properties"]["Environment"]["Variables"]
    assert set(link_env) == APPLE_REVOCATION_ENV | PURCHASE_ENV | RISC_ENV, \
        "only auth-link revokes Apple tokens, claims purchases and takes Google's security events"
    assert TEMPLATE["Parameters"]["AppStoreBundleId"]["Default"] == "", "purchases are off by default"
    assert TEMPLATE["Parameters"]["CredentialsDurationSeconds"]["MaxValue"] <= 3600
    assert 128 <= glob["MemorySize"] <= 10240 and 1 <= glob["Timeout"] <= 900
    for fn, role in FUNCTIONS.items():
        res = RES[fn]
        assert res["Metadata"]["BuildMethod"] == "makefile"
        assert res["Properties"]["Role"] == {"Fn::GetAtt": [role, "Arn"]}
        group = res["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert group == LOG_GROUPS[role]
        assert RES[group]["Properties"]["RetentionInDays"]


def test_firebase_is_off_by_default_and_passed_as_the_contract_says():
    """Issue 13: FirebaseProjectId empty (off), the contract's JWKS URL, anonymous users refused;
    the parameter's pattern is the functions' project-id rule (they check it again at init)."""
    params, env = TEMPLATE["Parameters"], TEMPLATE["Globals"]["Function"]["Environment"]["Variables"]
    assert params["FirebaseProjectId"]["Default"] == ""
    assert params["FirebaseJwksUrl"]["Default"] == \
        "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    assert params["FirebaseAllowAnonymous"]["Default"] == "false"
    assert set(params["FirebaseAllowAnonymous"]["AllowedValues"]) == {"true", "false"}
    assert env["FIREBASE_PROJECT_ID"] == {"Ref": "FirebaseProjectId"}
    assert env["FIREBASE_JWKS_URL"] == {"Ref": "FirebaseJwksUrl"}
    assert env["FIREBASE_ALLOW_ANONYMOUS"] == {"Ref": "FirebaseAllowAnonymous"}
    pattern = re.compile(params["FirebaseProjectId"]["AllowedPattern"])
    for ok_ in ("", "abcdef", "photobackup-test", "a-1-b-2", "p" * 30):
        assert pattern.fullmatch(ok_), ok_
    for bad in ("abcde", "p" * 31, "1abcdef", "-abcdef", "abcdef-", "My-Project", "my_project", "my.project"):
        assert not pattern.fullmatch(bad), bad


def test_function_urls_are_public_only_behind_the_parameter():
    assert TEMPLATE["Parameters"]["EnableFunctionUrls"]["Default"] == "false"
    urls = [lid for lid, r in RES.items() if r["Type"] == "AWS::Lambda::Url"]
    assert len(urls) == 3
    for lid in urls:
        assert RES[lid].get("Condition") == "FunctionUrlsEnabled"
        assert RES[lid]["Properties"]["AuthType"] == "NONE"
    perms = [(lid, r) for lid, r in RES.items() if r["Type"] == "AWS::Lambda::Permission"
             and r["Properties"]["Principal"] != "events.amazonaws.com"]   # the schedule's: see below
    assert len(perms) == 6
    for lid, r in perms:
        p = r["Properties"]
        assert r.get("Condition") == "FunctionUrlsEnabled", f"{lid} is unconditional"
        assert p["Principal"] == "*"
        if p["Action"] == "lambda:InvokeFunctionUrl":
            assert p["FunctionUrlAuthType"] == "NONE"
        else:
            assert p["Action"] == "lambda:InvokeFunction" and p["InvokedViaFunctionUrl"] is True, lid


def test_invoke_policy_allows_invoking_the_three_functions_only():
    doc = RES["InvokeFunctionsPolicy"]["Properties"]["PolicyDocument"]
    (st,) = as_list(doc["Statement"])
    assert st["Effect"] == "Allow" and as_list(st["Action"]) == ["lambda:InvokeFunction"]
    assert {resource_key(r) for r in st["Resource"]} == {("getatt", f) for f in FUNCTIONS}
    assert not RES["InvokeFunctionsPolicy"]["Properties"].get("Roles")


def test_outputs_name_the_functions_bucket_role_and_policy():
    outputs = TEMPLATE["Outputs"]
    for name in ("AuthSigninFunctionName", "AuthRefreshFunctionName", "AuthLinkFunctionName", "AuthSigninFunctionArn",
                 "IdentityBucketName", "UserAccessRoleArn", "InvokeFunctionsPolicyArn", "AuthSigninUrl"):
        assert name in outputs, name


def test_the_purge_lists_versions_of_one_account_only():
    (st,) = [st for _, roles, action, _, st in grants() if action == "s3:ListBucketVersions" and roles == ["AuthLinkRole"]]
    assert st["Condition"] == {"StringLike": {"s3:prefix": f"users/{UUID}/"}}
    assert iam_match(f"users/{UUID}/", f"users/{SAMPLE_UUID}/")
    for other in ("users/", "identities/", f"users/{SAMPLE_UUID}x/", ""):
        assert not iam_match(st["Condition"]["StringLike"]["s3:prefix"], other), other


def test_apple_key_is_read_from_ssm_only_when_configured():
    params = TEMPLATE["Parameters"]
    assert params["ApplePrivateKeyParameter"]["Default"] == ""
    assert re.fullmatch(params["ApplePrivateKeyParameter"]["AllowedPattern"], "/signin/apple-key")
    assert not re.fullmatch(params["ApplePrivateKeyParameter"]["AllowedPattern"], "signin/apple-key")
    assert not re.fullmatch(params["ApplePrivateKeyParameter"]["AllowedPattern"], "/a/*")
    for name in ("AppleTeamId", "AppleKeyId"):
        assert params[name]["Default"] == "" and re.fullmatch(params[name]["AllowedPattern"], "ABCDE12345")
        assert not re.fullmatch(params[name]["AllowedPattern"], "abcde12345")
    assert "ApplePrivateKey" not in params, "the key itself never travels as a parameter"
    conditional = {p["Fn::If"][0]: p["Fn::If"][1] for p in RES["AuthLinkRole"]["Properties"]["Policies"] if "Fn::If" in p}
    # Each key (Sign in with Apple's, the App Store Server API's) is readable only when configured,
    # and only that one parameter.
    for condition, parameter in (("AppleKeyInSSM", "ApplePrivateKeyParameter"),
                                 ("AppStoreApiKeyInSSM", "AppStoreApiPrivateKeyParameter")):
        assert TEMPLATE["Conditions"][condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": parameter}, ""]}]}
        (statement,) = conditional[condition]["PolicyDocument"]["Statement"]
        assert statement["Action"] == "ssm:GetParameter"
        assert statement["Resource"]["Fn::Sub"].endswith("parameter${%s}" % parameter)
    assert set(conditional) == {"AppleKeyInSSM", "AppStoreApiKeyInSSM"}


def test_auth_link_runs_every_30_minutes_with_time_to_purge():
    fn = RES["AuthLinkFunction"]["Properties"]
    assert "Events" not in fn, "the schedule targets the alias, never the unqualified function"
    rule = RES["AuthLinkScheduleRule"]["Properties"]
    assert rule["ScheduleExpression"] == "rate(30 minutes)" and rule["State"] == "ENABLED"
    assert 15 <= fn["Timeout"] <= 60
    for other in ("AuthSigninFunction", "AuthRefreshFunction"):
        assert "Events" not in RES[other]["Properties"]


def test_finished_deletion_records_and_event_markers_expire():
    rules = {r["Id"]: r for r in RES["IdentityBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]}
    done = rules["ExpireFinishedDeletionRecords"]
    assert done["Prefix"] == "deletions/" and done["TagFilters"] == [{"Key": "record", "Value": "deletion-done"}]
    assert done["ExpirationInDays"] == {"Ref": "DeletionRecordRetentionDays"}
    markers = rules["ExpireAppleAccountEventMarkers"]
    assert markers["Prefix"] == "notifications/apple-account/" and markers["ExpirationInDays"] >= 2
    assert "TagFilters" not in markers


def test_app_store_markers_outlive_apples_retries():
    rules = {r["Id"]: r for r in RES["IdentityBucket"]["Properties"]["LifecycleConfiguration"]["Rules"]}
    markers = rules["ExpireAppStoreEventMarkers"]
    assert markers["Prefix"] == "notifications/appstore/" and markers["ExpirationInDays"] >= 4


def test_alarms_watch_reuse_and_unclassified_failures_and_notify_the_optional_topic():
    reuse = RES["ReuseDetectedAlarm"]["Properties"]
    assert (reuse["Namespace"], reuse["MetricName"], reuse["Statistic"]) == ({"Ref": "MetricsNamespace"}, "ReuseDetected", "Sum")
    assert reuse["Threshold"] == 1 and reuse["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    rate = RES["UnclassifiedFailureRateAlarm"]["Properties"]
    ids = {m["Id"]: m for m in rate["Metrics"]}
    assert ids["unclassified"]["MetricStat"]["Metric"]["MetricName"] == "Unclassified"
    assert ids["invocations"]["MetricStat"]["Metric"]["MetricName"] == "Invocations"
    assert "unclassified" in ids["rate"]["Expression"] and "invocations" in ids["rate"]["Expression"]
    for alarm in (reuse, rate):
        assert alarm["AlarmActions"] == {"Fn::If": ["AlarmTopicGiven", [{"Ref": "AlarmTopicArn"}], {"Ref": "AWS::NoValue"}]}
        assert alarm["TreatMissingData"] == "notBreaching"
    assert TEMPLATE["Parameters"]["AlarmTopicArn"]["Default"] == ""


def test_signin_lists_versions_of_session_records_only():
    """Defect 1: its clean-up under a purged account lists one session record's versions, nothing else."""
    (st,) = [st for _, roles, action, _, st in grants() if action == "s3:ListBucketVersions" and roles == ["AuthSigninRole"]]
    pattern = st["Condition"]["StringLike"]["s3:prefix"]
    assert pattern == f"users/{UUID}/account/sessions/*"
    assert iam_match(pattern, f"users/{SAMPLE_UUID}/account/sessions/0123abcd.json")
    for other in (f"users/{SAMPLE_UUID}/", f"users/{SAMPLE_UUID}/photos/", "identities/", "deletions/", ""):
        assert not iam_match(pattern, other), other


def test_only_the_schedule_rule_may_invoke_the_scheduled_alias_and_the_app_cannot():
    """Issue 18, defect 7: the scheduled run's own path is auth-link's alias `scheduled`."""
    alias = RES["AuthLinkScheduledAlias"]
    assert alias["Type"] == "AWS::Lambda::Alias"
    assert alias["Properties"]["Name"] == "scheduled" and alias["Properties"]["FunctionVersion"] == "$LATEST"
    assert alias["Properties"]["FunctionName"] == {"Ref": "AuthLinkFunction"}
    (target,) = RES["AuthLinkScheduleRule"]["Properties"]["Targets"]
    assert target["Arn"] == {"Ref": "AuthLinkScheduledAlias"}
    assert target["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": ["ScheduledRunDeadLetterQueue", "Arn"]}
    perms = [r["Properties"] for r in RES.values() if r["Type"] == "AWS::Lambda::Permission"
             and r["Properties"]["FunctionName"] == {"Ref": "AuthLinkScheduledAlias"}]
    assert perms == [{"Action": "lambda:InvokeFunction", "FunctionName": {"Ref": "AuthLinkScheduledAlias"},
                      "Principal": "events.amazonaws.com", "SourceArn": {"Fn::GetAtt": ["AuthLinkScheduleRule", "Arn"]},
                      "SourceAccount": {"Ref": "AWS::AccountId"}}]
    # Every other permission and the app's policy name the unqualified function (no alias, no `:*`).
    for r in RES.values():
        if r["Type"] == "AWS::Lambda::Permission" and r["Properties"]["Principal"] != "events.amazonaws.com":
            assert r["Properties"]["FunctionName"]["Ref"] in FUNCTIONS
    doc = RES["InvokeFunctionsPolicy"]["Properties"]["PolicyDocument"]
    assert all(resource_key(x)[0] == "getatt" for st in as_list(doc["Statement"]) for x in as_list(st["Resource"]))
    assert RES["AuthLinkFunction"]["Properties"]["DeadLetterQueue"]["Type"] == "SQS"


def test_reserved_concurrency_and_access_logging_are_parameters():
    params = TEMPLATE["Parameters"]
    for fn in ("AuthSignin", "AuthRefresh", "AuthLink"):
        p = params[f"{fn}ReservedConcurrency"]
        assert p["Type"] == "Number" and p["Default"] >= 1 and p["MinValue"] == -1
        assert RES[f"{fn}Function"]["Properties"]["ReservedConcurrentExecutions"] == {
            "Fn::If": [f"{fn}ConcurrencyReserved", {"Ref": f"{fn}ReservedConcurrency"}, {"Ref": "AWS::NoValue"}]}
    assert params["AccessLogBucketName"]["Default"] == ""
    logging = RES["IdentityBucket"]["Properties"]["LoggingConfiguration"]["Fn::If"]
    assert logging[0] == "AccessLogsGiven" and logging[1]["DestinationBucketName"] == {"Ref": "AccessLogBucketName"}


def test_apple_web_return_target_is_off_by_default_and_given_to_auth_signin_only():
    """Issue 26: Sign in with Apple's return URL lives on auth-signin's Function URL; the parameter's
    pattern admits what the function accepts at init (an https App Link, an intent URL naming its
    package) and refuses the rest before a deploy."""
    param = TEMPLATE["Parameters"]["AppleWebReturnTarget"]
    assert param["Default"] == ""
    assert RES["AuthSigninFunction"]["Properties"]["Environment"]["Variables"] == \
        {"APPLE_WEB_RETURN_TARGET": {"Ref": "AppleWebReturnTarget"}}
    for fn in ("AuthRefreshFunction", "AuthLinkFunction"):
        assert "APPLE_WEB_RETURN_TARGET" not in RES[fn]["Properties"].get("Environment", {}).get("Variables", {})
    pattern = re.compile(param["AllowedPattern"])
    for ok_ in ("", "https://photos.example.com/apple-return", "https://photos.example.com",
                "intent://apple-return#Intent;scheme=photos;package=com.example.photos;end"):
        assert pattern.fullmatch(ok_), ok_
    for bad in ("http://photos.example.com/r", "https://photos.example.com/r#x", "https://photos.example.com/r?x=1",
                "https://u@photos.example.com/r", "photos://r", "intent://r#Intent;scheme=photos;end"):
        assert not pattern.fullmatch(bad), bad
