import Benchmark
import StrictJSON

/// The strict JSON parser and serializer on a sign-in's answer (the largest document a warm
/// sign-in writes: user, providers, subscription, credentials, storage, refresh token, meta).
func registerJSONBenchmarks() {
    let answer = Array(signInAnswer.utf8)
    Benchmark("json-parse-signin-answer") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? JSONParser.parse(answer)) }
    }
    Benchmark("json-serialize-signin-answer") { (benchmark: Benchmark, document: JSONValue) in
        for _ in benchmark.scaledIterations { blackHole(document.serialized()) }
    } setup: {
        prepare {
            try JSONParser.parse(answer)
        }
    }
}

/// docs/API.md's sign-in answer, with values of the real lengths.
private let signInAnswer = #"""
    {"success":true,"data":{"isNewUser":false,"user":{"serviceUserID":"6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b",\#
    "displayName":"Ada Lovelace","email":"x7k2q9zt@privaterelay.appleid.com","createdAt":"2026-11-22T11:09:50Z",\#
    "lastUpdated":"2026-11-22T11:09:50Z","primaryProvider":"apple","providers":[{"type":"apple",\#
    "id":"001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234","email":"x7k2q9zt@privaterelay.appleid.com",\#
    "isPrimary":true,"linkedAt":"2026-11-22T11:09:50Z","lastUsed":"2026-11-22T11:09:50Z"},{"type":"google",\#
    "id":"104729385610293847561","email":"ada.lovelace@gmail.com","isPrimary":false,\#
    "linkedAt":"2026-11-23T08:01:12Z","lastUsed":"2026-11-23T08:01:12Z"}],"subscription":{"tier":"free",\#
    "startDate":"2026-11-22T11:09:50Z","expiryDate":"2026-12-22T11:09:50Z","storageLimit":209715200,\#
    "storageUsed":0},"preferences":{"uploadQuality":"high","autoBackup":true,"wifiOnlyBackup":true}},\#
    "credentials":{"accessKeyId":"ASIAQ3EGRXYZ7EXAMPLE","secretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",\#
    "sessionToken":"IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD6EXAMPLEsessionTOKENgoesONandONandON\#
    forAfewHUNDREDbytesLIKEaREALoneDOESxAq8CCMP//////////ARAAGgwxMjM0NTY3ODkwMTIiDEXAMPLE",\#
    "expiration":"2026-11-22T12:09:50Z"},"storage":{"bucket":"photo-identities","region":"eu-west-1",\#
    "prefix":"users/6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b/"},\#
    "refreshToken":"rt1_bxwqOz1NT1-PYBoaPDTy7VvJ3q0j2yF4s8kMxw0eYc9nT5hQ1aZqW3vB7uRt2yL6pO0iK4jM9nB3vC5xZ1aS8dF",\#
    "refreshTokenExpiresAt":"2026-12-22T11:09:50Z"},"meta":{"requestId":"8f0d4c1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f",\#
    "timestamp":"2026-11-22T11:09:50.123Z"}}
    """#
