import AccountTestSupport

/// Tests/integration/test_grants.py holds the generated block against the derivation from
/// template.yaml; regenerate it with `.venv/bin/python -m signin_tools.standins.grants --swift`.
extension SimulatedGrants {
    static let table: [SimulatedFunction: [SimulatedGrant]] =
        // BEGIN GENERATED (signin_tools/standins/grants.py --swift)
        [
            .signin: [
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/identities/apple/*",
                        "$B/identities/google/*",
                        "$B/identities/firebase/*",
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/identities/apple-transfer/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/",
                        "$B/users/????????-????-????-????-????????????/photos/",
                        "$B/users/????????-????-????-????-????????????/thumbnails/",
                        "$B/users/????????-????-????-????-????????????/metadata/",
                        "$B/users/????????-????-????-????-????????????/account/",
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/profile.json",
                        "$B/users/????????-????-????-????-????????????/account/providers.json",
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObjectTagging", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/sessions/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucketVersions"],
                    resources: [
                        "$B"
                    ],
                    prefix: "users/????????-????-????-????-????????????/account/sessions/*"),
                SimulatedGrant(
                    actions: ["s3:GetObject"],
                    resources: [
                        "$B/suspensions/google/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject"],
                    resources: [
                        "$B/deletions/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucket"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["sts:AssumeRole"],
                    resources: [
                        "arn:aws:iam::123456789012:role/user-access"
                    ],
                    prefix: nil),
            ],
            .refresh: [
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObjectTagging", "s3:DeleteObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/sessions/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucket"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["sts:AssumeRole"],
                    resources: [
                        "arn:aws:iam::123456789012:role/user-access"
                    ],
                    prefix: nil),
            ],
            .link: [
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/identities/apple/*",
                        "$B/identities/google/*",
                        "$B/identities/firebase/*",
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/identities/apple-transfer/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObjectTagging"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/sessions/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucket"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucketVersions"],
                    resources: [
                        "$B"
                    ],
                    prefix: "users/????????-????-????-????-????????????/"),
                SimulatedGrant(
                    actions: ["s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucketMultipartUploads"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject"],
                    resources: [
                        "$B/deletions/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/purchases/apple/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/purchases/apple-state/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/suspensions/google/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/notifications/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["ssm:GetParameter"],
                    resources: [
                        "arn:aws:ssm:us-east-1:123456789012:parameter/signin/*"
                    ],
                    prefix: nil),
            ],
            .operator: [
                SimulatedGrant(
                    actions: ["s3:ListBucket"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucketVersions"],
                    resources: [
                        "$B"
                    ],
                    prefix: "users/????????-????-????-????-????????????/"),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/identities/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject"],
                    resources: [
                        "$B/operator/apple-transfer/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["ssm:GetParameter"],
                    resources: [
                        "arn:aws:ssm:us-east-1:123456789012:parameter/signin/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:DeleteObject", "s3:DeleteObjectVersion"],
                    resources: [
                        "$B/purchases/apple/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject"],
                    resources: [
                        "$B/suspensions/google/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject"],
                    resources: [
                        "$B/purchases/apple-state/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:PutObjectTagging"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/account/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:PutObject"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/",
                        "$B/users/????????-????-????-????-????????????/photos/",
                        "$B/users/????????-????-????-????-????????????/thumbnails/",
                        "$B/users/????????-????-????-????-????????????/metadata/",
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:DeleteObject", "s3:DeleteObjectVersion", "s3:AbortMultipartUpload"],
                    resources: [
                        "$B/users/????????-????-????-????-????????????/*"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:ListBucketMultipartUploads"],
                    resources: [
                        "$B"
                    ],
                    prefix: nil),
                SimulatedGrant(
                    actions: ["s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject"],
                    resources: [
                        "$B/deletions/*"
                    ],
                    prefix: nil),
            ],
        ]
    // END GENERATED
}
