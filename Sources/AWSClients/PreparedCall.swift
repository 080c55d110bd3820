import CurlHTTP
import PlatformSupport

/// One S3 or STS call ready to go: the transport that signs it, its request (or why it was
/// refused before sending), and how to read the answer. Calls of different services and result
/// types run together through `PreparedCall.run` / `AWSBatch`, overlapped in one network round.
struct PreparedCall<T> {
    let transport: SignedTransport
    let request: Result<OperationRequest, AWSError>
    let interpret: (HTTPResponse) throws(AWSError) -> T

    func map<U>(_ transform: @escaping (T) -> U) -> PreparedCall<U> {
        let interpret = self.interpret
        return PreparedCall<U>(transport: transport, request: request) { response throws(AWSError) -> U in
            transform(try interpret(response))
        }
    }

    /// Sends the valid calls as one batch and interprets each answer; refused ones never go out.
    static func run(_ calls: [PreparedCall<T>], deadline: Deadline) -> [Result<T, AWSError>] {
        var results = [Result<T, AWSError>?](repeating: nil, count: calls.count)
        var items: [(transport: SignedTransport, request: OperationRequest)] = []
        var positions: [Int] = []
        for (i, call) in calls.enumerated() {
            switch call.request {
            case .success(let request):
                items.append((call.transport, request))
                positions.append(i)
            case .failure(let error): results[i] = .failure(error)
            }
        }
        let outcomes = SignedTransport.sendAll(items, deadline: deadline)
        for (k, outcome) in outcomes.enumerated() {
            let call = calls[positions[k]]
            results[positions[k]] = outcome.flatMap { response in
                do throws(AWSError) { return .success(try call.interpret(response)) } catch { return .failure(error) }
            }
        }
        return results.map { $0! }
    }
}

/// A call for `AWSBatch`.
package enum AWSCall: Sendable {
    case s3Get(key: String)
    case s3Put(S3Put)
    case s3Delete(key: String, condition: S3DeleteCondition)
    /// One page (up to 1,000 keys) of ListObjectsV2 under a prefix, of the keys after
    /// `startAfter` when given (S3's order: UTF-8 bytes).
    case s3List(prefix: String, startAfter: String? = nil)
    /// One page of ListObjectsV2 as `S3ListRequest` names it (a delimiter, a continuation token, a
    /// page size): what the operator's check walks the bucket with.
    case s3ListPage(S3ListRequest)
    /// One page (up to 1,000 entries) of ListObjectVersions under a prefix, from a marker on.
    case s3ListVersions(prefix: String, after: S3VersionListing.Marker?)
    /// DeleteObjects of up to 1,000 versions, each for good.
    case s3DeleteVersions([S3ObjectVersion])
    /// DeleteObject of one listed version, for good, whatever characters its key holds (a key
    /// DeleteObjects' XML cannot carry).
    case s3DeleteListedVersion(S3ObjectVersion)
    /// One page (up to 1,000) of ListMultipartUploads under a prefix, from a marker on.
    case s3ListUploads(prefix: String, after: S3Upload?)
    /// AbortMultipartUpload of one listed upload.
    case s3AbortUpload(S3Upload)
    case assumeRole(AssumeRoleRequest)
}

package enum AWSCallOutcome: Sendable {
    case object(S3Object?)
    case stored(S3PutOutcome)
    case deleted(S3DeleteOutcome)
    case listing(S3Listing)
    case versions(S3VersionListing)
    case deletedVersions(S3BatchDeleteOutcome)
    case uploads(S3UploadListing)
    case credentials(TemporaryCredentials)
}

/// Runs S3 and STS calls together: one overlapped round on the shared HTTPClient (curl multi),
/// each call with the same bounded retries as the single-service methods. This is how a sign-in
/// reads the account, writes the session and gets credentials in one round.
package final class AWSBatch {
    package let s3: S3Client
    let sts: STSClient

    package init(s3: S3Client, sts: STSClient) {
        self.s3 = s3
        self.sts = sts
    }

    package func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] {
        PreparedCall.run(
            calls.map { call -> PreparedCall<AWSCallOutcome> in
                switch call {
                case .s3Get(let key): return s3.prepareGet(key).map(AWSCallOutcome.object)
                case .s3Put(let put): return s3.preparePut(put).map(AWSCallOutcome.stored)
                case .s3Delete(let key, let condition):
                    return s3.prepareDelete(key, condition: condition).map(AWSCallOutcome.deleted)
                case .s3List(let prefix, let startAfter):
                    return s3.prepareList(prefix: prefix, startAfter: startAfter).map(AWSCallOutcome.listing)
                case .s3ListPage(let r):
                    return s3.prepareList(
                        prefix: r.prefix, pageSize: r.pageSize, continuationToken: r.continuationToken,
                        delimiter: r.delimiter
                    ).map(AWSCallOutcome.listing)
                case .s3ListVersions(let prefix, let marker):
                    return s3.prepareListVersions(prefix: prefix, after: marker).map(AWSCallOutcome.versions)
                case .s3DeleteVersions(let versions):
                    return s3.prepareDeleteVersions(versions).map(AWSCallOutcome.deletedVersions)
                case .s3DeleteListedVersion(let version):
                    return s3.prepareDeleteListedVersion(version).map(AWSCallOutcome.deleted)
                case .s3ListUploads(let prefix, let marker):
                    return s3.prepareListUploads(prefix: prefix, after: marker).map(AWSCallOutcome.uploads)
                case .s3AbortUpload(let upload): return s3.prepareAbortUpload(upload).map(AWSCallOutcome.deleted)
                case .assumeRole(let r): return sts.prepareAssumeRole(r).map(AWSCallOutcome.credentials)
                }
            }, deadline: deadline)
    }
}
