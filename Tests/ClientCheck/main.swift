import Foundation
import SignInClient

// One scenario of Tests/integration/test_client.py against scripts/serve's server. The test arms
// the server's faults before starting this, and reads the server's counts and token trail after.
let arguments = Arguments(CommandLine.arguments)
let harness = Harness(arguments)

func signedIn(_ session: SignInSession) async throws -> SignInResult {
    try await session.signIn(with: .apple, idToken: arguments["apple"], intent: .signup)
}

do {
    switch arguments.scenario {
    case "concurrent":
        // Credentials about to expire (the clock is moved to 60 s before their expiration), then
        // 50 concurrent credentials() calls: one refresh reaches the server.
        let session = harness.session()
        _ = try await signedIn(session)
        let expiring = try await session.credentials()
        harness.clock.advance(to: expiring.expiration.addingTimeInterval(-60))
        let keys = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await session.credentials().accessKeyId } }
            var keys = Set<String>()
            for try await key in group { keys.insert(key) }
            return keys
        }
        emit(["distinctKeys": keys.count, "renewed": !keys.contains(expiring.accessKeyId)])

    case "lost":
        // The server drops the first refresh answer after the function answered: the client retries
        // with the same token (within the grace), then refreshes normally and lists its sessions.
        let session = harness.session()
        _ = try await signedIn(session)
        try await session.refresh()
        try await session.refresh()
        let sessions = try await session.sessions()
        emit(["sessions": sessions.count, "current": sessions.contains { $0.current }])

    case "storefail":
        // Contract v5: the rotated token is stored before it is presented. A mark that cannot be
        // stored sends nothing (storeUnavailable); a rotation that cannot be stored keeps the old,
        // marked token (with the answer's credentials), and the next call presenting a token
        // settles it first with that old token, which the server still answers.
        let session = harness.session()
        _ = try await signedIn(session)
        harness.store.failNextWrites(1)
        var unstoredMark = ""
        do { try await session.refresh() } catch { unstoredMark = errorName(error) }
        let keptAfterMark = await session.currentUser != nil
        harness.store.failNextWrites(1, skipping: 1)  // the mark is stored, the rotation is not
        try await session.refresh()
        let markedAfterRotation = storedField("unansweredSince", harness) != nil
        let listed = try await session.sessions().count
        emit([
            "failedWrites": harness.store.failedWrites, "unstoredMark": unstoredMark, "keptAfterMark": keptAfterMark,
            "markedAfterRotation": markedAfterRotation, "listed": listed,
            "storeHasSession": harness.storedData() != nil,
            "storeSettled": storedField("unansweredSince", harness) == nil,
        ])

    case "invalid":
        // Another holder of the same token signs the session out; our refresh gets SESSION_INVALID.
        let session = harness.session()
        let log = await StateLog.watching(session)
        _ = try await signedIn(session)
        let other = harness.session(store: InMemorySessionStore(harness.storedData()))
        let confirmed = await other.signOut()
        var code = ""
        do { try await session.refresh() } catch { code = errorName(error) }
        let states = await log.namesOnceSignedOut()
        emit([
            "otherSignedOut": confirmed, "error": code, "storeEmpty": harness.storedData() == nil,
            "states": states, "user": await session.currentUser == nil ? "none" : "some",
        ])

    case "outage":
        // Offline, a 5xx front door, a stalled one: errors, and nothing cleared; then it recovers
        // (attempts of 1 s: the stand-in's "function timeout" is 0.5 s here).
        let session = harness.session(transport: harness.transport(functionTimeout: 0.5, allowance: 0.5))
        let log = await StateLog.watching(session)
        _ = try await signedIn(session)
        var errors: [String] = []
        let offline = harness.session(
            store: InMemorySessionStore(harness.storedData()),
            transport: harness.transport(refresh: URL(string: "http://127.0.0.1:1/auth-refresh")!), retryDelays: [0.5])
        do { try await offline.refresh() } catch { errors.append(errorName(error)) }
        let offlineKept = await offline.currentUser != nil
        for _ in 0..<2 {  // the test armed "unavailable" then "stall" faults: the first refresh meets them all
            do { try await session.refresh() } catch { errors.append(errorName(error)) }
        }
        let stillSignedIn = await session.currentUser != nil
        let keptAfterFaults = harness.storedData() != nil && stillSignedIn
        var recovered = false
        for _ in 0..<4 where !recovered {  // a fault the timing left unused is used up here
            recovered = (try? await session.refresh()) != nil
        }
        emit([
            "errors": errors, "offlineKept": offlineKept, "kept": keptAfterFaults, "recovered": recovered,
            "states": await log.names,
        ])

    case "late":
        // The refresh answer is held back; the user signs out meanwhile; the late answer is dropped.
        let session = harness.session()
        let log = await StateLog.watching(session)
        _ = try await signedIn(session)
        let refresh = Task { () -> String in
            do throws(SignInError) { try await session.refresh() } catch { return errorName(error) }
            return "refreshed"
        }
        try await Task.sleep(for: .milliseconds(1500))
        await session.signOut()
        let outcome = await refresh.value
        let states = await log.namesOnceSignedOut()
        emit([
            "refresh": outcome, "storeEmpty": harness.storedData() == nil, "states": states,
            "user": await session.currentUser == nil ? "none" : "some",
        ])

    case "unlink", "delete":
        let session = harness.session()
        let log = await StateLog.watching(session)
        _ = try await signedIn(session)
        if arguments.scenario == "unlink" {
            _ = try await session.link(.google, idToken: arguments["google"])
            _ = try await session.unlink(.apple)
        } else {
            _ = try await session.deleteAccount()
        }
        let states = await log.namesOnceSignedOut()
        emit(["storeEmpty": harness.storedData() == nil, "states": states])

    case "wire":
        emit(await wireCheck(arguments))

    default:
        var found = try await rulesCheck(harness)
        if found == nil { found = await suspensionCheck(harness) }
        if found == nil { found = await phoneLifeCheck(harness) }
        guard let result = found else {
            FileHandle.standardError.write(Data("unknown scenario \(arguments.scenario)\n".utf8))
            exit(2)
        }
        emit(result)
    }
} catch let error as SignInError {
    emit(["failed": errorName(error)])
    exit(1)
}
