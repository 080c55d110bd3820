@testable import AppStoreSignedData

extension AppStoreSignedDataVerifier {
    /// Why `verify` refused, or nil if it accepted.
    func refusal<T>(
        _ verify: (AppStoreSignedDataVerifier) throws(AppStoreSignedDataError) -> T
    ) -> AppStoreSignedDataError? {
        do {
            _ = try verify(self)
            return nil
        } catch {
            return error
        }
    }

    func transactionRefusal(_ jws: String) -> AppStoreSignedDataError? {
        refusal { v throws(AppStoreSignedDataError) in try v.verifyTransaction(jws) }
    }
    func notificationRefusal(_ jws: String) -> AppStoreSignedDataError? {
        refusal { v throws(AppStoreSignedDataError) in try v.verifyNotification(jws) }
    }
}
