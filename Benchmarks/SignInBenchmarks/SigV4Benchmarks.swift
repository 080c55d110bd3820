import Benchmark
import SigV4

/// One SigV4 signature of an S3 PutObject-shaped request (the shape of a session record's write):
/// canonical request, string to sign, the HMAC chain and the Authorization header.
func registerSigV4Benchmarks() {
    Benchmark("sigv4-sign-s3-putobject") { benchmark in
        var signer = SigV4Signer(service: "s3", region: "us-east-1")
        let credentials = SigningCredentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            sessionToken: "IQoJb3JpZ2luX2VjEXAMPLETOKEN")
        let request = SignableRequest(
            method: "PUT", host: "signin-identities.s3.us-east-1.amazonaws.com",
            path: "/users/7f1c0d2e-0000-4000-8000-000000000001/account/sessions/0123456789abcdef0123456789abcdef.json",
            headers: [
                ("Content-Type", "application/json"), ("If-None-Match", "*"), ("x-amz-tagging", "record=session"),
            ],
            body: Array(#"{"version":1,"serviceUserID":"7f1c0d2e-0000-4000-8000-000000000001"}"#.utf8))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // A fixed date: the same bytes signed every time.
            blackHole(signer.sign(request, credentials: credentials, dateMilliseconds: 1_795_000_000_000))
        }
    }
}
