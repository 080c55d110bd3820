import AWSClients
import CurlHTTP

/// The account backend over S3 and STS: each batch is one `AWSBatch` round.
public final class AWSBackend: AccountBackend {
    let batch: AWSBatch

    public init(http: HTTPClient, config: AWSConfig, bucket: String, retry: RetryPolicy = RetryPolicy()) {
        batch = AWSBatch(s3: S3Client(http: http, config: config, bucket: bucket, retry: retry), sts: STSClient(http: http, config: config, retry: retry))
    }

    public func run(_ operations: [BackendOperation], deadline: Deadline) -> [Result<BackendOutcome, AWSError>] {
        batch.run(operations.map { op -> AWSCall in
            switch op {
            case .get(let key): return .s3Get(key: key)
            case .put(let put): return .s3Put(put)
            case .delete(let key): return .s3Delete(key: key)
            case .assumeRole(let r): return .assumeRole(r)
            }
        }, deadline: deadline).map { result in
            result.map { outcome -> BackendOutcome in
                switch outcome {
                case .object(let o): return .object(o)
                case .stored(let s): return .stored(s)
                case .deleted: return .deleted
                case .credentials(let c): return .credentials(c)
                }
            }
        }
    }
}
