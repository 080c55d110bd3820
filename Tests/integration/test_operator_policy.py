"""template.yaml's OperatorPolicy (issue 20): exactly what authctl's code does, read from the
template itself, and the moto form the tests run authctl with (signin_tools/operator_grants.py)."""
from signin_tools.operator_grants import operator_policy
from test_template import (ACCOUNT, ACCOUNT_ALL, APPLE_KEY_PARAMETER, ARN, BUCKET, DELETIONS, IDENTITIES, MARKERS,
                           SESSIONS, TEMPLATE, TRANSFER_PROGRESS, UUID, grants)

CLAIMS = ARN + "purchases/apple/*"
STATES = ARN + "purchases/apple-state/*"
SUSPENSIONS = ARN + "suspensions/google/*"

EXPECTED_OPERATOR_GRANTS = {
    ("s3:ListBucket", BUCKET),                                          # find/check listings; 404s
    ("s3:ListBucketVersions", BUCKET),                                  # delete: the purge (users/<uuid>/ only)
    *{(a, IDENTITIES) for a in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion")},
    *{(a, CLAIMS) for a in ("s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion")},   # never creates a claim
    ("s3:GetObject", STATES),                                           # purchase states: read only
    ("s3:GetObject", SUSPENSIONS),                                      # Google's suspensions: read only (issue 25)
    *{(a, ACCOUNT) for a in ("s3:GetObject", "s3:PutObject", "s3:PutObjectTagging")},   # documents, session revokes (tagged)
    *{("s3:PutObject", m) for m in MARKERS if not m.endswith("/account/")},   # completing a half-made account
    *{(a, ACCOUNT_ALL) for a in ("s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload")},   # the purge
    ("s3:ListBucketMultipartUploads", BUCKET),                          # the purge's unfinished uploads
    *{(a, DELETIONS) for a in ("s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject")},   # an Apple-started one dropped
    # apple-transfer (contract v4): prepare's place per team; the key the deployment reads, when in SSM
    *{(a, TRANSFER_PROGRESS) for a in ("s3:GetObject", "s3:PutObject")},
    ("ssm:GetParameter", APPLE_KEY_PARAMETER),
}


def test_the_operator_policy_grants_exactly_what_authctl_does():
    got = {(action, key) for owner, _, action, key, _ in grants() if owner == "OperatorPolicy"}
    assert got == EXPECTED_OPERATOR_GRANTS, f"extra {got - EXPECTED_OPERATOR_GRANTS}, missing {EXPECTED_OPERATOR_GRANTS - got}"
    (listing,) = [st for owner, _, action, _, st in grants() if owner == "OperatorPolicy" and action == "s3:ListBucketVersions"]
    assert listing["Condition"] == {"StringLike": {"s3:prefix": f"users/{UUID}/"}}
    assert "OperatorPolicyArn" in TEMPLATE["Outputs"]
    assert SESSIONS.startswith(ACCOUNT[:-1]), "session records are inside the account documents' grant"


def test_the_moto_form_is_only_broader():
    policy = operator_policy("b")
    statements = {st["Sid"]: st for st in policy["Statement"]}
    assert all("Condition" not in st and not any("?" in r for r in st["Resource"]) for st in statements.values())
    assert statements["OperatorPurge"]["Resource"] == ["arn:aws:s3:::b/users/*/*"]   # a UUID run of ? is one *
    assert set(statements) == {s["Sid"] for s in operator_policy("b", moto_form=False)["Statement"]}
