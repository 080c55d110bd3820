import Foundation
import SignInClient

/// The steps of Tests/integration/test_client_suspension.py: a Google identity that Google's
/// Cross-Account Protection reported hijacked, as the app meets it (contract v4, "Google's security
/// events"). Each step is a process over the store at `--store`, with the provider (`--provider`),
/// intent (`--intent`) and ID token (`--token`) the test gives; the test delivers Google's events
/// to auth-link between the steps. A refused call is reported with the code and the recommendation
/// the UI gets. Returns nil for a scenario that is not one of these.
func suspensionCheck(_ harness: Harness) async -> [String: Any]? {
    let arguments = harness.arguments
    let provider = Provider(rawValue: arguments["provider"]) ?? .apple
    let token = arguments["token"]
    var out: [String: Any]
    let session = harness.session()
    let log = await StateLog.watching(session)
    switch arguments.scenario {
    case "signin-with":
        do {
            let intent = SignInIntent(rawValue: arguments["intent"]) ?? .auto
            let result = try await session.signIn(with: provider, idToken: token, intent: intent)
            out = ["isNewUser": result.isNewUser, "serviceUserID": result.user.serviceUserID]
        } catch { out = refusal(error) }

    case "link-with":
        do {
            let answer = try await session.link(provider, idToken: token)
            out = ["providers": answer.user.providers.map(\.type)]
        } catch { out = refusal(error) }

    default:
        return nil
    }
    out["storeHasSession"] = harness.storedData() != nil
    out["user"] = await session.currentUser == nil ? "none" : "some"
    out["states"] = await log.names
    return out
}

/// A refused call as the app sees it: the code and what the UI is told to do.
func refusal(_ error: SignInError) -> [String: Any] {
    let recommendation: String
    switch error.recommendation {
    case .tellUser(let notice): recommendation = "tellUser(\(notice))"
    default: recommendation = "\(error.recommendation)"
    }
    return ["error": errorName(error), "recommendation": recommendation]
}
