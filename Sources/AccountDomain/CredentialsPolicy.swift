import PlatformSupport
import StrictJSON

/// The inline session policy passed to STS AssumeRole (docs/API.md, "Storage and credentials"): objects under
/// the user's photos/, thumbnails/ and metadata/; listing only with an `s3:prefix` under those
/// (trailing slashes kept, so `users/{uuid}` never matches `users/{uuid}x`); reading the profile.
/// Nothing in account/ beyond profile.json, nothing in identities/.
enum CredentialsPolicy {
    /// STS's limit on the packed session policy.
    static let maxPolicyCharacters = 2048
    static let userFolders = ["photos/", "thumbnails/", "metadata/"]

    enum PolicyError: Error, Equatable, Sendable {
        case invalidUUID
        case tooLong(Int)
    }

    /// `aws`, `aws-cn` or `aws-us-gov`, from the region name.
    static func partition(forRegion region: String) -> String {
        if region.hasPrefix("cn-") { return "aws-cn" }
        if region.hasPrefix("us-gov-") { return "aws-us-gov" }
        return "aws"
    }

    static func document(bucket: String, uuid: String, region: String) throws(PolicyError) -> String {
        guard UUIDText.isCanonical(uuid) else { throw .invalidUUID }
        let bucketARN = "arn:\(partition(forRegion: region)):s3:::\(bucket)"
        let prefixes = userFolders.map { "users/\(uuid)/\($0)" }
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
        let text = policy.serializedString()
        guard text.count <= maxPolicyCharacters else { throw .tooLong(text.count) }
        return text
    }
}
