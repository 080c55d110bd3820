import AppStoreSignedData
import StrictJSON

extension Answer {
    /// App Store's RESCIND_CONSENT: acknowledged, one audit line for the operator (the app
    /// transaction's id is what the app can match to its user; no account is named, none changes)
    /// and the `ConsentRescinded` count.
    package static func consentRescinded(_ n: AppStoreNotification) -> Answer {
        var answer = event(status: "acknowledged")
        var details = JSONObject([("notificationUUID", .string(n.notificationUUID))])
        if let environment = n.environment { details["environment"] = .string(environment.rawValue) }
        if let id = n.appData?.appTransaction?.appTransactionId { details["appTransactionId"] = .string(id) }
        answer.audits = [
            AuditRecord(
                operation: "rescindConsent", serviceUserID: nil, provider: nil, outcome: "acknowledged",
                details: details)
        ]
        answer.counts["ConsentRescinded"] = 1
        return answer
    }
}
