import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AccountTransfer

/// ListObjectsV2 as `S3ListRequest` names it, with S3's rules: keys under the prefix, each run of
/// keys sharing the text up to the next delimiter rolled up into one common prefix (one entry of
/// the page, however many keys it holds: the keys below it are never returned), entries in byte
/// order, at most `pageSize` of them a page, a continuation token that resumes after the last
/// entry (a common prefix included: its keys are never returned again).
extension SimulatedS3 {
    package func listPage(_ request: S3ListRequest) -> S3Listing {
        var entries: [String: Bool] = [:]  // entry -> is a common prefix
        let prefixBytes = request.prefix.utf8.count
        for key in history.keys where key.hasPrefix(request.prefix) && current(key) != nil {
            let rest = Array(key.utf8.dropFirst(prefixBytes))
            if let delimiter = request.delimiter.map({ Array($0.utf8) }), let end = rest.firstRange(of: delimiter) {
                entries[request.prefix + String(decoding: rest[..<end.upperBound], as: UTF8.self)] = true
            } else {
                entries[key] = false
            }
        }
        var ordered = entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let token = request.continuationToken {
            ordered = ordered.filter { token.utf8.lexicographicallyPrecedes($0.utf8) }
        }
        let page = ordered.prefix(request.pageSize)
        let truncated = ordered.count > request.pageSize
        return S3Listing(
            keys: page.filter { entries[$0] == false }, isTruncated: truncated,
            continuationToken: truncated ? page.last : nil, commonPrefixes: page.filter { entries[$0] == true })
    }
}
