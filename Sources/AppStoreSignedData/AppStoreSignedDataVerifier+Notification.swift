extension AppStoreSignedDataVerifier {
    /// An App Store Server Notification V2 (`signedPayload`): verified as a signed transaction is,
    /// then its `data` (bundle id, environment, app Apple ID, and the nested `signedTransactionInfo`
    /// and `signedRenewalInfo`, each verified at its own `signedDate`, in the notification's
    /// environment), its `summary` or its `externalPurchaseToken` (bundle id, app Apple ID, and the
    /// summary's environment), or its `appData` (the same, and the nested
    /// `signedAppTransactionInfo`). One with none of these (a shape added after this code) is
    /// returned once its signature and chain verify: it changes nothing here.
    package func verifyNotification(_ signedPayload: String) throws(AppStoreSignedDataError) -> AppStoreNotification {
        let p = try verifiedPayload(signedPayload, context: "notification")
        let notificationType = try p.string("notificationType")
        let subtype = try p.optionalString("subtype")
        let notificationUUID = try p.string("notificationUUID")
        let version = try p.optionalString("version")
        let signedDate = try p.date("signedDate")
        let data = try p.optionalObject("data", context: "notification data").map(notificationData)
        let summary = try p.optionalObject("summary", context: "notification summary").map(notificationSummary)
        let appData = try p.optionalObject("appData", context: "notification app data").map(notificationAppData)
        if let token = try p.optionalObject("externalPurchaseToken", context: "notification external purchase token") {
            // Apple's library: a token whose id starts with SANDBOX is the sandbox's.
            // Checked against the deployment's environments like every other notification (v5).
            let environment: AppStoreEnvironment =
                try token.optionalString("externalPurchaseId")?.hasPrefix("SANDBOX") == true ? .sandbox : .production
            try check(environment, token.context)
            try check(bundleID: try token.string("bundleId"), token.context)
            try check(appAppleID: try token.optionalInt64("appAppleId"), environment, token.context)
        }
        return AppStoreNotification(
            notificationType: notificationType, subtype: subtype, notificationUUID: notificationUUID, version: version,
            signedDate: signedDate, data: data, summary: summary, appData: appData)
    }

    /// `appData`: the app's bundle id, environment and Apple ID, and the nested
    /// `signedAppTransactionInfo` verified as an app transaction of the same environment.
    private func notificationAppData(_ a: PayloadReader) throws(AppStoreSignedDataError) -> AppStoreNotificationAppData
    {
        let environment = try a.environment()
        try check(environment, a.context)
        let bundleId = try a.string("bundleId")
        try check(bundleID: bundleId, a.context)
        let appAppleId = try a.optionalInt64("appAppleId")
        try check(appAppleID: appAppleId, environment, a.context)
        var appTransaction: AppStoreAppTransaction?
        if let jws = try a.optionalString("signedAppTransactionInfo") {
            do {
                let nested = try verifyAppTransaction(jws)
                try same(nested.environment, environment)
                appTransaction = nested
            } catch { throw error.nested(in: "signedAppTransactionInfo") }
        }
        return AppStoreNotificationAppData(
            appAppleId: appAppleId, bundleId: bundleId, environment: environment, appTransaction: appTransaction)
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
