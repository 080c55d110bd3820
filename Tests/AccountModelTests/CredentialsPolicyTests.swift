import AccountTestSupport
import StrictJSON
import Testing

@Suite struct CredentialsPolicyTests {
    let uuid = "6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b"

    @Test func documentShape() throws {
        let text = try CredentialsPolicy.document(bucket: "photo-backup-accounts", uuid: uuid, region: "eu-west-1")
        #expect(text.count <= 2048)
        let doc = try JSONParser.parse(text)
        let statements = doc["Statement"]?.arrayValue ?? []
        #expect(statements.count == 3)
        #expect(text.contains("\"arn:aws:s3:::photo-backup-accounts/users/\(uuid)/photos/*\""))
        #expect(text.contains("\"users/\(uuid)/thumbnails/*\""))
        #expect(text.contains("arn:aws:s3:::photo-backup-accounts/users/\(uuid)/account/profile.json"))
        #expect(!text.contains("providers.json") && !text.contains("identities/") && !text.contains("sessions"))
        #expect(!text.contains("s3:*") && !text.contains("\"*\""))
    }

    /// The document as a JSON tree, serialized: what `document` wrote before it wrote bytes itself.
    func treeDocument(bucket: String, uuid: String, region: String) -> String {
        let bucketARN = "arn:\(CredentialsPolicy.partition(forRegion: region)):s3:::\(bucket)"
        let prefixes = CredentialsPolicy.userFolders.map { "users/\(uuid)/\($0)" }
        let policy: JSONValue = [
            "Version": "2012-10-17",
            "Statement": [
                [
                    "Sid": "UserObjects", "Effect": "Allow",
                    "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
                    "Resource": .array(prefixes.map { .string("\(bucketARN)/\($0)*") }),
                ],
                [
                    "Sid": "ListUserFolders", "Effect": "Allow", "Action": "s3:ListBucket",
                    "Resource": .string(bucketARN),
                    "Condition": ["StringLike": ["s3:prefix": .array(prefixes.map { .string("\($0)*") })]],
                ],
                [
                    "Sid": "ReadProfile", "Effect": "Allow", "Action": "s3:GetObject",
                    "Resource": .string("\(bucketARN)/\(AccountKeys.profile(uuid))"),
                ],
            ],
        ]
        return policy.serializedString()
    }

    @Test func documentIsTheTreeSerialized() throws {
        // Any bucket text, escapes included: the bytes written equal the tree's serialization.
        for bucket in ["photo-backup-accounts", "a.b-c", "quote\"back\\slash", "tab\tnew\nline", "\u{1}x"] {
            for region in ["us-east-1", "cn-north-1", "us-gov-west-1"] {
                let written = try CredentialsPolicy.document(bucket: bucket, uuid: uuid, region: region)
                #expect(written == treeDocument(bucket: bucket, uuid: uuid, region: region), "\(bucket) \(region)")
            }
        }
    }

    @Test func longestBucketStaysUnderTheSTSLimit() throws {
        let bucket = String(repeating: "b", count: 63)
        #expect(try CredentialsPolicy.document(bucket: bucket, uuid: uuid, region: "us-gov-west-1").count <= 2048)
    }

    @Test func partitions() throws {
        #expect(
            try CredentialsPolicy.document(bucket: "b-b", uuid: uuid, region: "cn-north-1").contains(
                "arn:aws-cn:s3:::b-b"))
        #expect(
            try CredentialsPolicy.document(bucket: "b-b", uuid: uuid, region: "us-gov-east-1").contains(
                "arn:aws-us-gov:s3:::b-b"))
    }

    @Test func onlyCanonicalUUIDsGetIn() {
        for bad in [
            "6F1C2A3B-4D5E-4F60-8A7B-1C2D3E4F5A6B", "*", "\(uuid)/../x", "6f1c2a3b4d5e4f608a7b1c2d3e4f5a6b", "",
        ] {
            #expect(throws: CredentialsPolicy.PolicyError.invalidUUID) {
                try CredentialsPolicy.document(bucket: "b-b", uuid: bad, region: "us-east-1")
            }
        }
    }

    @Test func keyRules() {
        #expect(AccountKeys.isValidProviderID("001234.abcdef.0123"))
        #expect(AccountKeys.isValidProviderID("104729385610293847561"))
        for bad in [".", "..", "", "a/b", "a b", "é", String(repeating: "a", count: 256)] {
            #expect(!AccountKeys.isValidProviderID(bad))
        }
        #expect(
            AccountKeys.markers(uuid) == [
                "users/\(uuid)/", "users/\(uuid)/photos/", "users/\(uuid)/thumbnails/", "users/\(uuid)/metadata/",
                "users/\(uuid)/account/",
            ])
    }
}
