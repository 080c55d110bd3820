import PlatformSupport
import StrictJSON

/// The inline session policy passed to STS AssumeRole (docs/API.md, "Storage and credentials"): objects under
/// the user's photos/, thumbnails/ and metadata/; listing only with an `s3:prefix` under those
/// (trailing slashes kept, so `users/{uuid}` never matches `users/{uuid}x`); reading the profile.
/// Nothing in account/ beyond profile.json, nothing in identities/.
package enum CredentialsPolicy {
    /// STS's limit on the packed session policy.
    package static let maxPolicyCharacters = 2048
    package static let userFolders = ["photos/", "thumbnails/", "metadata/"]

    package enum PolicyError: Error, Equatable, Sendable {
        case invalidUUID
        case tooLong(Int)
    }

    /// `aws`, `aws-cn` or `aws-us-gov`, from the region name.
    package static func partition(forRegion region: String) -> String {
        if region.hasPrefix("cn-") { return "aws-cn" }
        if region.hasPrefix("us-gov-") { return "aws-us-gov" }
        return "aws"
    }

    package static func document(bucket: String, uuid: String, region: String) throws(PolicyError) -> String {
        guard UUIDText.isCanonical(uuid) else { throw .invalidUUID }
        let bucketARN = "arn:" + partition(forRegion: region) + ":s3:::" + bucket
        let prefixes = userFolders.map { "users/" + uuid + "/" + $0 }
        // Written straight into bytes, in the order and form `JSONValue.serialized()` gives the
        // document as a tree (CredentialsPolicyTests holds the tree and compares): building the
        // tree cost ~90k instructions per sign-in, a twentieth of the function's own work.
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        out.append(contentsOf: #"{"Version":"2012-10-17","Statement":[{"Sid":"UserObjects","Effect":"Allow","#.utf8)
        out.append(contentsOf: #""Action":["s3:GetObject","s3:PutObject","s3:DeleteObject"],"Resource":"#.utf8)
        strings(prefixes.map { bucketARN + "/" + $0 + "*" }, into: &out)
        out.append(
            contentsOf: #"},{"Sid":"ListUserFolders","Effect":"Allow","Action":"s3:ListBucket","Resource":"#.utf8)
        JSONValue.writeString(bucketARN, into: &out)
        out.append(contentsOf: #","Condition":{"StringLike":{"s3:prefix":"#.utf8)
        strings(prefixes.map { $0 + "*" }, into: &out)
        out.append(contentsOf: #"}}},{"Sid":"ReadProfile","Effect":"Allow","Action":"s3:GetObject","Resource":"#.utf8)
        JSONValue.writeString(bucketARN + "/" + AccountKeys.profile(uuid), into: &out)
        out.append(contentsOf: "}]}".utf8)
        // Bytes, not Characters: never fewer, so the limit holds either way (and every part is ASCII).
        guard out.count <= maxPolicyCharacters else { throw .tooLong(out.count) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON array of strings.
    private static func strings(_ items: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (n, item) in items.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(item, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
