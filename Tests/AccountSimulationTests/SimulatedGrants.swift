import AWSClients
import AccountTestSupport

/// The function an operation of the simulation runs in, named as template.yaml names it.
enum SimulatedFunction: String, Sendable {
    case signin = "auth-signin"
    case refresh = "auth-refresh"
    case link = "auth-link"
    /// authctl, with template.yaml's OperatorPolicy.
    case `operator` = "authctl"

    /// The function that runs the simulation's operation `name` (SimulationWorld.run's names):
    /// sign-in ops are auth-signin, refresh and sessions auth-refresh, everything about the
    /// account, Apple's and the App Store's notifications and the schedule auth-link; the operator's
    /// (`op...`) authctl. Nil: no function (a test's own step), whose calls are not checked. A new kind of
    /// operation joins this list, or its calls go unchecked.
    init?(operation name: String) {
        let words = name.split(separator: " ")
        switch words.first.map(String.init) ?? "" {
        case "signIn": self = .signin
        case "refresh", "signOut", "list", "signOutOthers", "signOutSession", "steal", "replay": self = .refresh
        case "link", "unlink", "delete", "apple", "google", "scheduled", "claim", "store": self = .link
        case "opDisable", "opEnable", "opRevokeOne", "opRevoke", "opDelete", "opCheck", "opPrepare", "opComplete":
            self = .operator
        // forged N: SimulationWorld's N = 2 links and 3 unlinks (auth-link), the rest refresh.
        case "forged": self = words.count > 1 && (words[1] == "2" || words[1] == "3") ? .link : .refresh
        default: return nil
        }
    }
}

/// One Allow statement of a function's role: actions on resources (`*` any run, `?` one
/// character, as IAM reads them), and the `s3:prefix` a listing must match (StringLike), if any.
struct SimulatedGrant: Sendable {
    let actions: [String]
    let resources: [String]
    let prefix: String?
}

/// Each function's role's S3/STS grants, generated from template.yaml (issue 18): the simulated S3
/// refuses, as S3 answers 403 AccessDenied, every request the calling function's role would
/// not allow, so a code path that needs a new grant fails in the simulation first.
/// The table is in SimulatedGrants+Table.swift.
enum SimulatedGrants {
    /// `$B` in a resource: the simulation's bucket (SimulationTests' settings).
    static let bucketARN = "arn:aws:s3:::sim-identities"

    /// Why `function`'s role may not make `call` (nil: it may). Every request a call makes is
    /// checked as S3 and STS authorize it: a batch delete per key.
    static func refusal(of call: AWSCall, by function: SimulatedFunction) -> String? {
        for (action, resource, prefix) in requests(call) where !allows(function, action, resource, prefix: prefix) {
            return "\(function.rawValue) may not \(action) on \(resource)" + (prefix.map { " (prefix \($0))" } ?? "")
        }
        return nil
    }

    static func requests(_ call: AWSCall) -> [(String, String, String?)] {
        let object = { (key: String) in bucketARN + "/" + key }
        switch call {
        case .s3Get(let key): return [("s3:GetObject", object(key), nil)]
        case .s3Put(let put):
            return [("s3:PutObject", object(put.key), nil)]
                + (put.tags.isEmpty ? [] : [("s3:PutObjectTagging", object(put.key), nil)])
        case .s3Delete(let key, .version): return [("s3:DeleteObjectVersion", object(key), nil)]
        case .s3Delete(let key, _): return [("s3:DeleteObject", object(key), nil)]
        case .s3List(let prefix, _): return [("s3:ListBucket", bucketARN, prefix)]
        case .s3ListPage(let r): return [("s3:ListBucket", bucketARN, r.prefix)]
        case .s3ListVersions(let prefix, _): return [("s3:ListBucketVersions", bucketARN, prefix)]
        case .s3DeleteVersions(let versions): return versions.map { ("s3:DeleteObjectVersion", object($0.key), nil) }
        case .s3DeleteListedVersion(let version): return [("s3:DeleteObjectVersion", object(version.key), nil)]
        case .s3ListUploads(let prefix, _): return [("s3:ListBucketMultipartUploads", bucketARN, prefix)]
        case .s3AbortUpload(let upload): return [("s3:AbortMultipartUpload", object(upload.key), nil)]
        case .assumeRole(let request): return [("sts:AssumeRole", request.roleARN, nil)]
        // No default: a call added later must be mapped here before it builds, never run unchecked.
        }
    }

    static func allows(_ function: SimulatedFunction, _ action: String, _ resource: String, prefix: String?) -> Bool {
        (table[function] ?? []).contains { grant in
            grant.actions.contains(action)
                && grant.resources.contains { iamMatch($0.replacingBucket(bucketARN), resource) }
                && (grant.prefix.map { pattern in prefix.map { iamMatch(pattern, $0) } ?? false } ?? true)
        }
    }

    /// IAM's pattern matching: `*` any run of characters (`/` included), `?` exactly one.
    static func iamMatch(_ pattern: String, _ value: String) -> Bool {
        let p = Array(pattern.utf8), v = Array(value.utf8)
        var pi = 0, vi = 0, star = -1, mark = 0
        while vi < v.count {
            if pi < p.count && (p[pi] == UInt8(ascii: "?") || p[pi] == v[vi]) {
                pi += 1
                vi += 1
            } else if pi < p.count && p[pi] == UInt8(ascii: "*") {
                star = pi
                mark = vi
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                vi = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}

extension String {
    fileprivate func replacingBucket(_ arn: String) -> String {
        hasPrefix("$B") ? arn + dropFirst(2) : self
    }
}
