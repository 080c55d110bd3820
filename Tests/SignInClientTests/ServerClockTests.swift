import Foundation
import Testing

@testable import SignInClient

/// Defect 4 of issue 24: expiry is judged on the server's clock (the answer's `meta.timestamp`
/// against the device's), so a device clock hours off neither refreshes on every call nor keeps
/// expired credentials.
@Suite struct ServerClockTests {
    func session(_ transport: ScriptedTransport, deviceClock: TestClock) async throws -> SignInSession {
        let session = SignInSession(
            configuration: SignInConfiguration(
                transport: transport, store: InMemorySessionStore(), clock: { deviceClock.now() }))
        _ = try await session.signIn(with: .apple, idToken: "id-token")
        return session
    }

    @Test func aDeviceClockTwoHoursAheadDoesNotRefreshOnEveryCall() async throws {
        let transport = backend(expiresIn: 3600)
        let clock = TestClock(offset: 2 * 3600)
        let session = try await session(transport, deviceClock: clock)
        for _ in 0..<20 {
            _ = try await session.credentials()
            clock.advance(30)  // ten minutes of S3 requests, well inside the credentials' hour
        }
        #expect(transport.count(.refresh) == 0)
    }

    @Test func aDeviceClockTwoHoursBehindStillRefreshesExpiringCredentials() async throws {
        let transport = backend(expiresIn: 100)  // due on the server's clock (margin 300 s)
        let clock = TestClock(offset: -2 * 3600)
        let session = try await session(transport, deviceClock: clock)
        clock.advance(15)  // past the minimum refresh interval
        #expect(try await session.credentials().accessKeyId == "AK1")
        #expect(transport.count(.refresh) == 1)
    }

    @Test func justReceivedCredentialsAreNeverRefreshedAgainWhateverTheyLookLike() async throws {
        let transport = backend(expiresIn: -60)  // already expired: no clock makes them look newer
        let clock = TestClock()
        let session = try await session(transport, deviceClock: clock)
        for _ in 0..<3 {
            _ = try await session.credentials()
            clock.advance(3)
        }
        #expect(transport.count(.refresh) == 0)  // received under 10 s ago: not again, not once per call
        clock.advance(2)
        _ = try await session.credentials()
        _ = try await session.credentials()
        #expect(transport.count(.refresh) == 1)  // one rotation per minimum interval
    }
}
