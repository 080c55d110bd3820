import Foundation
import SignInClient

/// The steps of Tests/integration/test_client_rules.py's phone-life scenarios (contract v5, issue
/// 32): the app relaunched after a process death or a freeze, asked for something other than a
/// refresh first. The freezes and kills are the test's (SIGSTOP, SIGCONT, SIGKILL of an
/// `app-try` process). Returns nil for a scenario that is not one of these.
func phoneLifeCheck(_ harness: Harness) async -> [String: Any]? {
    switch harness.arguments.scenario {
    case "app-relaunch":
        // The next launch: the account's sessions first (a marked token is settled before it is
        // presented to anything else), then credentials; what the store holds after, the states.
        let session = harness.session()
        let log = await StateLog.watching(session)
        var outcomes: [String] = []
        do { outcomes.append("listed \(try await session.sessions().count)") } catch {
            outcomes.append(errorName(error))
        }
        do {
            _ = try await session.credentials()
            outcomes.append("credentials")
        } catch { outcomes.append(errorName(error)) }
        let ended = outcomes.contains("notSignedIn") || outcomes.contains("SESSION_INVALID")
        return [
            "outcomes": outcomes, "storeHasSession": harness.storedData() != nil,
            "states": ended ? await log.namesOnceSignedOut() : await log.names,
        ]

    default:
        return nil
    }
}
