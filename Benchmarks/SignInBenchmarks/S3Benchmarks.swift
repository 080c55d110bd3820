import AWSClients
import Benchmark
import CurlHTTP
import PlatformSupport

/// S3 through the client the functions use (SigV4, libcurl, the answer read) against the stand-in,
/// over kept-alive loopback connections: one GetObject, and five PutObjects overlapped on the wire
/// (curl multi, as a sign-up writes) beside the same five one after another. With
/// `SIGNIN_BENCH_AWS=environment` they go to the S3 the environment names instead (`AWS_ENDPOINT_URL`,
/// `IDENTITY_BUCKET`, credentials): scripts/bench.d/20-aws points them at moto and at a stub that
/// answers after 20 ms, as S3 is latency-bound.
func registerS3Benchmarks() {
    Benchmark("s3-getobject-kept-alive") { (benchmark: Benchmark, s3: S3Client) in
        for _ in benchmark.scaledIterations { blackHole(try? s3.get(S3Fixture.key, deadline: S3Fixture.deadline)) }
    } setup: {
        prepare {
            try S3Fixture.client()
        }
    }

    Benchmark("s3-five-putobjects-overlapped") { (benchmark: Benchmark, s3: S3Client) in
        for _ in benchmark.scaledIterations { blackHole(s3.putAll(S3Fixture.puts, deadline: S3Fixture.deadline)) }
    } setup: {
        prepare {
            try S3Fixture.client()
        }
    }

    Benchmark("s3-five-putobjects-one-after-another") { (benchmark: Benchmark, s3: S3Client) in
        for _ in benchmark.scaledIterations {
            for put in S3Fixture.puts { blackHole(try? s3.put(put, deadline: S3Fixture.deadline)) }
        }
    } setup: {
        prepare {
            try S3Fixture.client()
        }
    }
}

/// The objects the S3 benchmarks read and write, and a client whose connections are already open.
enum S3Fixture {
    static let key = "bench/get/profile.json"
    static let puts = (0..<5).map {
        S3Put(
            key: "bench/puts/\($0).json", body: Array(repeating: UInt8(ascii: "x"), count: 512),
            contentType: "application/json")
    }
    static var deadline: Deadline { .after(milliseconds: 10_000) }

    static func client() throws -> S3Client {
        let bucket: String
        if Environment.get("SIGNIN_BENCH_AWS") == "environment" {
            bucket = Environment.nonEmpty("IDENTITY_BUCKET") ?? WarmFunction.bucket
        } else {
            WarmFunction.configureEnvironment()
            bucket = WarmFunction.bucket
        }
        let s3 = S3Client(http: try HTTPClient(), config: try AWSConfig.fromEnvironment(), bucket: bucket)
        let object = S3Put(
            key: key, body: Array(repeating: UInt8(ascii: "x"), count: 1024), contentType: "application/json")
        _ = try s3.put(object, deadline: deadline)
        for result in s3.putAll(puts, deadline: deadline) { _ = try result.get() }  // five connections open
        return s3
    }
}
