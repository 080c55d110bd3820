extension AppStoreSignedDataVerifier {
    /// An App Store Server Notification V2 (`signedPayload`): verified as a signed transaction is,
    /// then its `data` (bundle id, environment, app Apple ID, and the nested `signedTransactionInfo`
    /// and `signedRenewalInfo`, each verified at its own `signedDate`, in the notification's
    /// environment) or its `summary` (bundle id, environment, app Apple ID).
    package func verifyNotification(_ signedPayload: String) throws(AppStoreSignedDataError) -> AppStoreNotification {
        let p = try verifiedPayload(signedPayload, context: "notification")
        let notificationType = try p.string("notificationType")
        let subtype = try p.optionalString("subtype")
        let notificationUUID = try p.string("notificationUUID")
        let version = try p.optionalString("version")
        let signedDate = try p.date("signedDate")
        let data = try p.optionalObject("data", context: "notification data").map(notificationData)
        let summary = try p.optionalObject("summary", context: "notification summary").map(notificationSummary)
        guard data != nil || summary != nil else { throw .payload("notification has neither data nor summary") }
        return AppStoreNotification(
            notificationType: notificationType, subtype: subtype, notificationUUID: notificationUUID, version: version,
            signedDate: signedDate, data: data, summary: summary)
    }

    private func notificationData(_ d: PayloadReader) throws(AppStoreSignedDataError) -> AppStoreNotificationData {
        let environment = try d.environment()
        try check(environment, d.context)
        let bundleId = try d.string("bundleId")
        try check(bundleID: bundleId, d.context)
        let appAppleId = try d.optionalInt64("appAppleId")
        try check(appAppleID: appAppleId, environment, d.context)

        var transaction: AppStoreTransaction?
        if let jws = try d.optionalString("signedTransactionInfo") {
            do {
                let nested = try verifyTransaction(jws)
                try same(nested.environment, environment)
                transaction = nested
            } catch { throw error.nested(in: "signedTransactionInfo") }
        }
        var renewalInfo: AppStoreRenewalInfo?
        if let jws = try d.optionalString("signedRenewalInfo") {
            do {
                let nested = try verifyRenewalInfo(jws)
                try same(nested.environment, environment)
                renewalInfo = nested
            } catch { throw error.nested(in: "signedRenewalInfo") }
        }
        return AppStoreNotificationData(
            appAppleId: appAppleId, bundleId: bundleId, bundleVersion: try d.optionalString("bundleVersion"),
            environment: environment, transaction: transaction, renewalInfo: renewalInfo,
            status: try d.optionalInt("status"))
    }

    private func notificationSummary(_ s: PayloadReader) throws(AppStoreSignedDataError) -> AppStoreNotificationSummary
    {
        let summary = try AppStoreNotificationSummary(s)
        try check(summary.environment, s.context)
        try check(bundleID: summary.bundleId, s.context)
        try check(appAppleID: summary.appAppleId, summary.environment, s.context)
        return summary
    }

    private func same(_ nested: AppStoreEnvironment, _ outer: AppStoreEnvironment) throws(AppStoreSignedDataError) {
        guard nested == outer else {
            throw AppStoreSignedDataError(.environment, "environment differs from the notification's")
        }
    }
}
