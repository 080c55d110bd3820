import AWSClients
import AccountTestSupport
import Testing

/// The simulation's per-function grant check (issue 18) reads patterns and listings as IAM does.
@Suite struct SimulatedGrantsTests {
    let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"

    @Test func patternsMatchAsIAMReadsThem() {
        #expect(SimulatedGrants.iamMatch("users/????????-????-????-????-????????????/*", "users/\(uuid)/photos/a"))
        #expect(!SimulatedGrants.iamMatch("users/????????-????-????-????-????????????/*", "users/\(uuid)x/photos/a"))
        #expect(SimulatedGrants.iamMatch("identities/*", "identities/apple/x/y"))
        #expect(!SimulatedGrants.iamMatch("identities/*", "identitiesx"))
        #expect(SimulatedGrants.iamMatch("a*b*c", "aXXbYYc") && !SimulatedGrants.iamMatch("a*b*c", "aXXbYY"))
    }

    @Test func eachFunctionGetsItsOwnRolesGrants() {
        let photo = AWSCall.s3Get(key: "users/\(uuid)/photos/a.jpg")
        for f in [SimulatedFunction.signin, .refresh, .link] {
            #expect(SimulatedGrants.refusal(of: photo, by: f) != nil, "\(f) may read a user's photo")
        }
        #expect(SimulatedGrants.refusal(of: .s3Get(key: "deletions/\(uuid).json"), by: .signin) == nil)
        #expect(SimulatedGrants.refusal(of: .s3Get(key: "identities/apple/1"), by: .refresh) != nil)
        #expect(SimulatedGrants.refusal(of: .s3ListVersions(prefix: "users/\(uuid)/", after: nil), by: .link) == nil)
        #expect(SimulatedGrants.refusal(of: .s3ListVersions(prefix: "identities/", after: nil), by: .link) != nil)
        #expect(SimulatedGrants.refusal(of: .s3ListVersions(prefix: "users/\(uuid)/", after: nil), by: .signin) != nil)
        let batch = AWSCall.s3DeleteVersions([
            S3ObjectVersion(key: "users/\(uuid)/photos/a", versionID: "v1"),
            S3ObjectVersion(key: "identities/apple/1", versionID: "v2"),
        ])
        #expect(SimulatedGrants.refusal(of: batch, by: .link) == nil)
        #expect(SimulatedGrants.refusal(of: batch, by: .signin) != nil, "checked per key")
    }

    @Test func operationsAreRunByTheirFunction() {
        #expect(SimulatedFunction(operation: "signIn apple/1 auto") == .signin)
        #expect(SimulatedFunction(operation: "signOutSession ab12cd") == .refresh)
        #expect(SimulatedFunction(operation: "forged 3") == .link)
        #expect(SimulatedFunction(operation: "forged 0") == .refresh)
        #expect(SimulatedFunction(operation: "scheduled") == .link)
        #expect(SimulatedFunction(operation: "claim 2000000000000001") == .link)
        #expect(SimulatedFunction(operation: "operator repair") == nil)
    }
}
