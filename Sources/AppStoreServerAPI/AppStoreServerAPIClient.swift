import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// The App Store Server API's Get All Subscription Statuses
/// (`GET /inApps/v1/subscriptions/{transactionId}`), authorized by a fresh bearer token per
/// attempt (`AppStoreServerAPIToken`). Transport failures, 429 and 5xx go again after a jittered
/// backoff (`HTTPClient.sendAll(_:retry:…)`) within the attempts and the deadline; 401 and other
/// 4xx do not. The answer's signed items are returned unverified: the caller verifies each as a
/// signed transaction. Single-threaded, like the `HTTPClient` it shares.
package final class AppStoreServerAPIClient {
    typealias Outcome = Result<HTTPResponse, AppStoreServerAPIError>

    package let settings: AppStoreServerAPISettings
    private let key: P256PrivateKey
    /// Seconds since the epoch, for the token's `iat` (tests move it).
    private let now: () -> Int64
    /// One request at a time through the retry loop, at most `requestTimeoutCapMilliseconds` an
    /// attempt.
    package var sender: RetryingSender

    /// Upper bound for one attempt; the deadline usually binds first.
    static let requestTimeoutCapMilliseconds = 3_000
    /// An answer lists every subscription group's latest transactions: a few signed items of a few KiB.
    static let maxResponseBytes = 256 * 1024

    /// With the key as PKCS#8 PEM (the variable's value or the SSM parameter's); a PEM that is not
    /// a P-256 key is a configuration error naming the variable (never the PEM).
    package convenience init(
        settings: AppStoreServerAPISettings, privateKeyPEM: String, http: HTTPClient, retry: RetryPolicy = .init()
    ) throws(ConfigurationError) {
        let key = try settings.keySource.p256Key(pem: privateKeyPEM) { error in
            "does not hold a usable In-App Purchase key: \(error)"
        }
        self.init(settings: settings, key: key, http: http, retry: retry)
    }

    package init(
        settings: AppStoreServerAPISettings, key: P256PrivateKey, http: HTTPClient, retry: RetryPolicy = .init(),
        now: @escaping () -> Int64 = Clock.nowSeconds
    ) {
        self.settings = settings
        self.key = key
        self.now = now
        sender = RetryingSender(
            http: http, retry: retry, requestTimeoutCapMilliseconds: Self.requestTimeoutCapMilliseconds)
    }

    /// The statuses of every subscription of the customer who made `transactionID` (any
    /// transaction id of theirs; the original one is what claims send), from the production or
    /// the sandbox host.
    package func subscriptionStatuses(
        transactionID: String, sandbox: Bool, deadline: Deadline
    ) throws(AppStoreServerAPIError) -> [AppStoreSubscriptionStatus] {
        guard (1...64).contains(transactionID.utf8.count), transactionID.utf8.allSatisfy(ASCII.isDigit) else {
            throw .rejected(status: 400)
        }
        let url = settings.base(sandbox: sandbox) + "/inApps/v1/subscriptions/" + transactionID
        let response = try sender.send(
            deadline: deadline,
            request: { timeout in
                let token = AppStoreServerAPIToken.make(settings: settings, key: key, now: now())
                return HTTPRequest(
                    method: "GET", url: url,
                    headers: [("Authorization", "Bearer " + token), ("Accept", "application/json")],
                    timeoutMilliseconds: timeout, maxResponseBytes: Self.maxResponseBytes)
            },
            interpret: Self.verdict, giveUp: .failure(.unavailable)
        ).get()
        return try Self.statuses(from: response.body)
    }

    /// What one answer means: success (200), a transient failure, or a refusal.
    static func verdict(_ answer: Result<HTTPResponse, HTTPError>) -> RetryVerdict<Outcome, AppStoreServerAPIError> {
        switch answer {
        case .failure(let error):
            return .transportFailure(error, unavailable: .unavailable, malformed: .malformedAnswer)
        case .success(let response):
            switch response.status {
            case 200: return .final(.success(response))
            case 401: return .final(.failure(.unauthorized))
            case 501: return .final(.failure(.unavailable))
            case 429, 500...599: return .retry(.unavailable)
            case 400...499: return .final(.failure(.rejected(status: response.status)))
            default: return .final(.failure(.malformedAnswer))
            }
        }
    }

    /// `StatusResponse`: `{"environment", "bundleId", "appAppleId", "data": [{"subscriptionGroupIdentifier",
    /// "lastTransactions": [{"status", "originalTransactionId", "signedTransactionInfo",
    /// "signedRenewalInfo"}]}]}`. Unknown members are ignored (Apple adds fields); an item without
    /// a signed transaction, or a member of the wrong type, makes the answer malformed.
    package static func statuses(from body: [UInt8]) throws(AppStoreServerAPIError) -> [AppStoreSubscriptionStatus] {
        guard let answer = try? JSONParser.parse(body), let groups = answer["data"]?.arrayValue else {
            throw .malformedAnswer
        }
        var items: [AppStoreSubscriptionStatus] = []
        for group in groups {
            guard let last = group["lastTransactions"]?.arrayValue else { throw .malformedAnswer }
            for item in last {
                guard item.objectValue != nil, let signed = item["signedTransactionInfo"]?.stringValue else {
                    throw .malformedAnswer
                }
                func optional(_ name: String) throws(AppStoreServerAPIError) -> JSONValue? {
                    guard let v = item[name], !v.isNull else { return nil }
                    return v
                }
                let status = try optional("status")
                let original = try optional("originalTransactionId")
                let renewal = try optional("signedRenewalInfo")
                guard status == nil || status?.int64Value != nil, original == nil || original?.stringValue != nil,
                    renewal == nil || renewal?.stringValue != nil
                else { throw .malformedAnswer }
                items.append(
                    AppStoreSubscriptionStatus(
                        status: status?.int64Value.map { Int($0) }, originalTransactionId: original?.stringValue,
                        signedTransactionInfo: signed, signedRenewalInfo: renewal?.stringValue))
            }
        }
        return items
    }
}
