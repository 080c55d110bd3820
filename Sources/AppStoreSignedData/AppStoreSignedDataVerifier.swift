import CryptoPrimitives
import PlatformSupport

/// Verifies App Store signed data as Apple's App Store Server Library does (SignedDataVerifier):
/// a compact JWS with `alg` `ES256` and an `x5c` of three certificates, of which the leaf and the
/// intermediate must chain (strict X.509, no partial chain) to a configured root at the payload's
/// `signedDate`, the leaf carrying the receipt-signing OID and the intermediate the WWDR OID; the
/// signature verified with the leaf's P-256 key; then the payload decoded strictly and checked
/// against the configuration (environment, bundle id, app Apple ID).
///
/// One verifier should live as long as the process. Synchronous and not thread-safe (like
/// `TokenVerifier`): a Lambda process handles one invocation at a time.
package final class AppStoreSignedDataVerifier {
    /// The leaf's extension: Apple's "Mac App Store receipt signing" marker.
    package static let leafExtensionOID = "1.2.840.113635.100.6.11.1"
    /// The intermediate's extension: Apple Worldwide Developer Relations CA.
    package static let intermediateExtensionOID = "1.2.840.113635.100.6.2.1"

    package let configuration: AppStoreVerifierConfiguration
    private let chains: X509ChainVerifier
    private var verifiedChains: VerifiedChainCache

    /// - Throws: when `configuration.roots` is empty.
    package convenience init(configuration: AppStoreVerifierConfiguration) throws(X509ChainError) {
        try self.init(configuration: configuration, chainCacheCapacity: 16)
    }

    /// - Parameter chainCacheCapacity: how many verified chains to remember (0: none; the bench
    ///   measures both).
    package init(configuration: AppStoreVerifierConfiguration, chainCacheCapacity: Int) throws(X509ChainError) {
        self.configuration = configuration
        self.chains = try X509ChainVerifier(
            roots: configuration.roots, leafExtensionOID: Self.leafExtensionOID,
            intermediateExtensionOID: Self.intermediateExtensionOID)
        self.verifiedChains = VerifiedChainCache(capacity: chainCacheCapacity)
    }

    /// How many verified chains are remembered (tests).
    package var cachedChainCount: Int { verifiedChains.count }

    /// A signed transaction (StoreKit 2's `jwsRepresentation`), for this app, in an accepted environment.
    package func verifyTransaction(_ signedTransaction: String) throws(AppStoreSignedDataError) -> AppStoreTransaction {
        let transaction = try AppStoreTransaction(verifiedPayload(signedTransaction, context: "transaction"))
        try check(transaction.environment, "transaction")
        try check(bundleID: transaction.bundleId, "transaction")
        return transaction
    }

    /// Signed renewal info, in an accepted environment (it names no bundle id).
    package func verifyRenewalInfo(_ signedRenewalInfo: String) throws(AppStoreSignedDataError) -> AppStoreRenewalInfo {
        let renewalInfo = try AppStoreRenewalInfo(verifiedPayload(signedRenewalInfo, context: "renewal info"))
        try check(renewalInfo.environment, "renewal info")
        return renewalInfo
    }

    /// A signed app transaction (StoreKit's `AppTransaction`, a notification's
    /// `signedAppTransactionInfo`), for this app, in an accepted environment; its chain is checked
    /// at `receiptCreationDate`, as Apple's library does (an app transaction has no `signedDate`).
    package func verifyAppTransaction(_ signed: String) throws(AppStoreSignedDataError) -> AppStoreAppTransaction {
        let appTransaction = try AppStoreAppTransaction(
            verifiedPayload(signed, context: "app transaction", dateMember: "receiptCreationDate"))
        try check(appTransaction.environment, "app transaction")
        try check(bundleID: appTransaction.bundleId, "app transaction")
        try check(appAppleID: appTransaction.appAppleId, appTransaction.environment, "app transaction")
        return appTransaction
    }

    /// The JWS verified (structure, chain at `dateMember`, OIDs, signature); its payload, to decode.
    func verifiedPayload(
        _ text: String, context: String, dateMember: String = "signedDate"
    ) throws(AppStoreSignedDataError) -> PayloadReader {
        let jws = try AppStoreJWS(text)
        let payload = PayloadReader(object: jws.payload, context: context)
        // Read before the signature is checked, only to know when the chain must hold (as Apple's
        // library does); a forged date still needs a chain valid then and a signature by its leaf.
        let signedDate = try payload.date(dateMember)
        let key = try leafKey(jws, at: signedDate / 1000)
        guard jws.signingInput.withUnsafeBytes({ key.verify(signature: jws.signature, message: $0) }) else {
            throw AppStoreSignedDataError(.signature, "\(context) signature does not verify with the leaf key")
        }
        return payload
    }

    /// The leaf's P-256 key, once leaf → intermediate → a configured root has verified at `time`
    /// (seconds since the epoch).
    func leafKey(_ jws: AppStoreJWS, at time: Int64) throws(AppStoreSignedDataError) -> P256PublicKey {
        if let key = verifiedChains.key(encodedHeader: jws.encodedHeader, at: time) { return key }
        let der = try jws.certificates()
        let leaf: X509Certificate
        let intermediate: X509Certificate
        do {
            leaf = try X509Certificate(der: der.leaf)
            intermediate = try X509Certificate(der: der.intermediate)
        } catch {
            throw .malformed("x5c entry is not a DER certificate")
        }
        let chain: X509VerifiedChain
        do {
            chain = try chains.verify(leaf: leaf, intermediate: intermediate, at: time)
        } catch {
            throw AppStoreSignedDataError(.certificateChain(error), "x5c \(error)")
        }
        let key: P256PublicKey
        do {
            key = try P256PublicKey(certificate: leaf)
        } catch {
            throw AppStoreSignedDataError(.algorithm, "leaf certificate key is not P-256 (ES256)")
        }
        verifiedChains.insert(.init(encodedHeader: Array(jws.encodedHeader), chain: chain, key: key))
        return key
    }

    func check(_ environment: AppStoreEnvironment, _ context: String) throws(AppStoreSignedDataError) {
        guard environment.isSignedByApple else {
            throw AppStoreSignedDataError(
                .environment, "\(context) environment is Xcode or LocalTesting, which Apple does not sign")
        }
        guard configuration.environments.contains(environment) else {
            throw AppStoreSignedDataError(.environment, "\(context) environment is not one this deployment accepts")
        }
    }

    func check(bundleID: String, _ context: String) throws(AppStoreSignedDataError) {
        guard bundleID.utf8.elementsEqual(configuration.bundleID.utf8) else {
            throw AppStoreSignedDataError(.bundleID, "\(context) bundleId is not this app's")
        }
    }

    /// Apple's rule: a Production notification names the configured app Apple ID; sandbox ones
    /// carry none, but one that names another app is refused wherever it comes from.
    func check(
        appAppleID: Int64?, _ environment: AppStoreEnvironment, _ context: String
    )
        throws(AppStoreSignedDataError)
    {
        guard let expected = configuration.appAppleID else { return }
        if appAppleID == nil && environment != .production { return }
        guard appAppleID == expected else {
            throw AppStoreSignedDataError(.appAppleID, "\(context) appAppleId is not this app's")
        }
    }
}
