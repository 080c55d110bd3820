import Foundation
import SignInClient

/// The scenarios of CONTRACT.md's "The app's clients" (Tests/integration/test_client_rules.py):
/// each step a process of its own where the rule is about processes (an app and its extension over
/// one file store). Returns nil for a scenario that is not one of these.
func rulesCheck(_ harness: Harness) async throws -> [String: Any]? {
    switch harness.arguments.scenario {
    case "signin":
        _ = try await harness.session().signIn(with: .apple, idToken: harness.arguments["apple"], intent: .signup)
        return ["signedIn": true]

    case "signin-user":
        // A sign-in (Tests/integration/test_client_transfer.py: before and after an app transfer)
        // and the user it answers.
        let result = try await harness.session().signIn(
            with: .apple, idToken: harness.arguments["apple"], intent: .auto)
        return [
            "isNewUser": result.isNewUser, "serviceUserID": result.user.serviceUserID,
            "appleUserID": result.user.appleUserID ?? NSNull(),
        ]

    case "refresh-user":
        // The app at a later launch: a refresh, and the user it reports and stores.
        let session = harness.session()
        let user = try await session.refresh()
        return [
            "serviceUserID": user.serviceUserID, "appleUserID": user.appleUserID ?? NSNull(),
            "storedAppleUserID": await harness.session().currentUser?.appleUserID ?? NSNull(),
        ]

    case "app-refresh":
        // The main app at a later launch: reads the shared store and refreshes (a rotation).
        try await harness.session().refresh()
        return ["refreshed": true]

    case "app-list":
        return ["sessions": try await harness.session().sessions().count]

    case "app-try":
        // The main app at a later launch: a refresh, then (with `--list yes`) a list; their outcomes,
        // failures included, what the store holds after, and the states published.
        let session = harness.session()
        let log = await StateLog.watching(session)
        var outcomes: [String] = []
        do {
            try await session.refresh()
            outcomes.append("refreshed")
        } catch { outcomes.append(errorName(error)) }
        if harness.arguments["list"] == "yes" {
            do { outcomes.append("listed \(try await session.sessions().count)") } catch {
                outcomes.append(errorName(error))
            }
        }
        let ended = outcomes.contains("notSignedIn")
        return [
            "outcomes": outcomes, "storeHasSession": harness.storedData() != nil,
            "states": ended ? await log.namesOnceSignedOut() : await log.names,
        ]

    case "extension":
        // A read-only process over the app's store: reads it once, then lists the account's sessions
        // at every "go" line on stdin (the test rotates the token from another process in between).
        let appex = harness.session(refreshPolicy: .readOnly)
        let signedIn = await appex.currentUser != nil
        announce("ready")
        var results: [String] = []
        while let line = readLine(), line == "go" {
            do { results.append("listed \(try await appex.sessions().count)") } catch {
                results.append(errorName(error))
            }
            announce("done")
        }
        return ["signedIn": signedIn, "results": results, "storeHasSession": harness.storedData() != nil]

    case "overtake":
        // The refresh's first attempt is held by a proxy before it reaches the function (the test arms
        // it); the client waits past the function's timeout instead of retrying beside it. After the
        // grace, the token it kept must still be the session's current one.
        let session = harness.session()
        _ = try await session.signIn(with: .apple, idToken: harness.arguments["apple"], intent: .signup)
        let started = Date()
        try await session.refresh()
        let waited = Date().timeIntervalSince(started)
        try await Task.sleep(for: .seconds(Double(harness.arguments["after"]) ?? 5))
        try await session.refresh()
        return ["waited": (waited * 10).rounded() / 10, "sessions": try await session.sessions().count]

    case "clock":
        // The device clock two hours ahead: twenty minutes of S3 requests ask for credentials often.
        harness.clock.advance(by: 2 * 3600)
        let session = harness.session()
        _ = try await session.signIn(with: .apple, idToken: harness.arguments["apple"], intent: .signup)
        var keys = Set<String>()
        for _ in 0..<40 {
            keys.insert(try await session.credentials().accessKeyId)
            harness.clock.advance(by: 30)
        }
        return ["distinctKeys": keys.count, "sessions": try await session.sessions().count]

    case "refresh":
        // One refresh whose first answer the test spoils (unreadable, throttled), then a list.
        let session = harness.session()
        _ = try await session.signIn(with: .apple, idToken: harness.arguments["apple"], intent: .signup)
        try await session.refresh()
        return ["sessions": try await session.sessions().count]

    default:
        return nil
    }
}

/// A line the test waits for on stdout (written at once: stdout is a pipe).
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}
