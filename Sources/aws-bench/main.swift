// Benchmark driver for scripts/bench.d/20-aws. Prints one `name value` line per figure.
//
//   aws-bench sign [seconds]            signatures per second (S3 PutObject-shaped request)
//   aws-bench get  COUNT KEY            sequential GetObject round trips (AWS_* and IDENTITY_BUCKET from the environment)
//   aws-bench puts ROUNDS               five PutObjects at once vs one after another, ROUNDS times each
//
// Every loop is bounded in count and in time.
import AWSClients
import BenchSupport
import CurlHTTP
import PlatformSupport
import SigV4

func fail(_ message: String) -> Never { Bench.fail("aws-bench", message) }

func monotonicMs() -> Double { Double(Clock.monotonicNanoseconds()) / 1e6 }

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? 0 : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
}

func format(_ v: Double, _ digits: Int = 2) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    return String(r)
}

let args = CommandLine.arguments
guard args.count >= 2 else { fail("usage: aws-bench sign|get|puts ...") }

switch args[1] {
case "sign":
    let seconds = args.count > 2 ? Double(args[2]) ?? 1 : 1
    var signer = SigV4Signer(service: "s3", region: "us-east-1")
    let creds = SigningCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        sessionToken: "IQoJb3JpZ2luX2VjEXAMPLETOKEN")
    let body = Array("{\"version\":1,\"serviceUserID\":\"7f1c0d2e-0000-4000-8000-000000000001\"}".utf8)
    let request = SignableRequest(
        method: "PUT", host: "signin-identities.s3.us-east-1.amazonaws.com",
        path: "/users/7f1c0d2e-0000-4000-8000-000000000001/account/profile.json",
        headers: [("Content-Type", "application/json"), ("If-Match", "\"9b2cf535f27731c974343645a3985328\"")],
        body: body)
    let start = monotonicMs()
    var count = 0
    var sink = 0
    while count < 5_000_000 {
        let signed = signer.sign(request, credentials: creds, dateMilliseconds: Clock.nowMilliseconds())
        sink &+= signed.signature.utf8.count
        count += 1
        if count % 1000 == 0, monotonicMs() - start > seconds * 1000 { break }
    }
    let elapsed = monotonicMs() - start
    print("signatures_per_second \(Int(Double(count) / elapsed * 1000))")
    print("microseconds_per_signature \(format(elapsed * 1000 / Double(count)))")
    if sink == 0 { print("") }

case "get":
    guard args.count > 3, let n = Int(args[2]), (1...10_000).contains(n) else { fail("usage: aws-bench get COUNT KEY") }
    let key = args[3]
    do {
        let config = try AWSConfig.fromEnvironment()
        guard let bucket = Environment.nonEmpty("IDENTITY_BUCKET") else { fail("IDENTITY_BUCKET is not set") }
        let http = try HTTPClient()
        let s3 = S3Client(http: http, config: config, bucket: bucket)
        _ = try s3.get(key, deadline: .after(milliseconds: 10_000))  // warm the connection
        var times: [Double] = []
        let start = monotonicMs()
        for _ in 0..<n {
            let t0 = monotonicMs()
            guard try s3.get(key, deadline: .after(milliseconds: 10_000)) != nil else {
                fail("benchmark key is missing")
            }
            times.append(monotonicMs() - t0)
            if monotonicMs() - start > 60_000 { break }
        }
        print("get_count \(times.count)")
        print("get_ms_median \(format(median(times), 3))")
        print("get_ms_mean \(format(times.reduce(0, +) / Double(times.count), 3))")
    } catch {
        fail("\(error)")
    }

case "puts":
    guard args.count > 2, let rounds = Int(args[2]), (1...1000).contains(rounds) else {
        fail("usage: aws-bench puts ROUNDS")
    }
    do {
        let config = try AWSConfig.fromEnvironment()
        guard let bucket = Environment.nonEmpty("IDENTITY_BUCKET") else { fail("IDENTITY_BUCKET is not set") }
        let http = try HTTPClient()
        let s3 = S3Client(http: http, config: config, bucket: bucket)
        let body = Array(String(repeating: "x", count: 512).utf8)
        func puts(_ round: Int) -> [S3Put] {
            (0..<5).map { S3Put(key: "bench/puts/\(round)/\($0).json", body: body, contentType: "application/json") }
        }
        // Warm: five connections in the pool, so both variants start from the same state.
        for r in s3.putAll(puts(-1), deadline: .after(milliseconds: 10_000)) { _ = try r.get() }
        var together: [Double] = [], oneByOne: [Double] = []
        let start = monotonicMs()
        for round in 0..<rounds {
            var t0 = monotonicMs()
            for r in s3.putAll(puts(round), deadline: .after(milliseconds: 10_000)) { _ = try r.get() }
            together.append(monotonicMs() - t0)
            t0 = monotonicMs()
            for p in puts(round) { _ = try s3.put(p, deadline: .after(milliseconds: 10_000)) }
            oneByOne.append(monotonicMs() - t0)
            if monotonicMs() - start > 60_000 { break }
        }
        print("puts_rounds \(together.count)")
        print("five_puts_overlapped_ms_median \(format(median(together), 3))")
        print("five_puts_sequential_ms_median \(format(median(oneByOne), 3))")
        print("overlapped_over_sequential \(format(median(together) / median(oneByOne), 3))")
    } catch {
        fail("\(error)")
    }

default:
    fail("unknown mode \(args[1])")
}
