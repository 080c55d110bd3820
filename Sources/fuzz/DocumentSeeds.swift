import AccountModel
import PurchaseModel
import StrictJSON

/// The documents' seeds as the code writes them: each read by its type and written back, so a
/// seed is byte for byte what a function stores (an old shape read by the current version too).
extension DocumentFuzz {
    static let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    static let linkID = "5f2b1a4c9e8d7f6a5b4c3d2e1f0a9b8c"

    static let sources: [(name: String, text: String)] = [
        (
            "providers.json",
            #"{"primaryProvider":"apple","providers":[{"type":"apple","id":"001234.abcdef","email":"x@privaterelay.appleid.com","displayName":"Ann","linkedAt":"2026-01-02T03:04:05Z","lastUsed":"2026-01-03T00:00:00Z","isPrimary":true,"linkID":"\#(linkID)","emailDeliverable":true},{"type":"google","id":"1098","email":null,"displayName":null,"linkedAt":"2026-01-04T00:00:00Z","lastUsed":"2026-01-04T00:00:00Z","isPrimary":false,"linkID":null}],"pending":[{"type":"firebase","id":"fb1","linkID":"\#(linkID)","since":"2026-01-05T00:00:00.123Z"}],"retired":[{"type":"google","id":"1097","linkID":null,"at":"2026-01-01T00:00:00Z"}],"purchaseClaims":["purchases/apple/2000000123"]}"#
        ),
        (
            "providers-google-suspended.json",
            #"{"primaryProvider":"apple","providers":[{"type":"apple","id":"001234.abcdef","email":null,"displayName":"Ann","linkedAt":"2026-01-02T03:04:05Z","lastUsed":"2026-01-03T00:00:00Z","isPrimary":true,"linkID":"\#(linkID)"},{"type":"google","id":"1098","email":null,"displayName":null,"linkedAt":"2026-01-04T00:00:00Z","lastUsed":"2026-01-04T00:00:00Z","isPrimary":false,"linkID":"\#(linkID)","sessionsNotBefore":"2026-11-20T10:00:00.123Z","suspension":{"suspended":true,"reason":"hijacking","eventIssuedAt":"2026-11-20T09:59:58.000Z","changedAt":"2026-11-20T10:00:00.123Z"}}]}"#
        ),
        (
            "suspension.json",
            #"{"suspended":false,"reason":null,"eventIssuedAt":"2026-11-21T08:00:00.000Z","changedAt":"2026-11-21T08:00:01.456Z","version":1}"#
        ),
        (
            "providers-deleted.json",
            #"{"primaryProvider":"google","providers":[],"deletedAt":"2026-02-01T00:00:00.000Z"}"#
        ),
        (
            "profile.json",
            #"{"serviceUserID":"\#(uuid)","displayName":"Ann","email":null,"createdAt":"2026-01-02T03:04:05Z","lastUpdated":"2026-01-02T03:04:05Z","primaryProvider":"apple","subscription":{"tier":"free","startDate":"2026-01-02T03:04:05Z","expiryDate":"2026-02-01T03:04:05Z","storageLimit":209715200,"storageUsed":0},"preferences":{"uploadQuality":"high","autoBackup":true,"wifiOnlyBackup":true}}"#
        ),
        (
            "session.json",
            #"{"sessionID":"\#(linkID)","serviceUserID":"\#(uuid)","provider":"apple","identity":{"provider":"apple","sub":"001234.abcdef","linkID":"\#(linkID)"},"device":"iPhone 15 · Photos 2.3","signInAt":"2026-01-02T03:04:05.006Z","expiresAt":"2026-04-02T03:04:05.006Z","generation":3,"current":{"hash":"aa","issuedAt":"2026-01-03T00:00:00.000Z"},"previous":{"hash":"bb","rotatedAt":"2026-01-03T00:00:00.000Z"},"superseded":["cc"],"replaced":["dd","ee"],"revokedAt":null,"revokedReason":null}"#
        ),
        (
            "session-v1.json",
            #"{"version":1,"sessionID":"\#(linkID)","serviceUserID":"\#(uuid)","provider":"google","signInAt":"2025-12-31T23:59:59Z","expiresAt":"2026-03-31T23:59:59Z","current":{"hash":"aa","issuedAt":"2025-12-31T23:59:59Z"},"revokedAt":"2026-01-01T00:00:00Z","revokedReason":"unlinked"}"#
        ),
        (
            "deletion.json",
            #"{"serviceUserID":"\#(uuid)","requestedAt":"2026-01-02T03:04:05.000Z","committedAt":"2026-01-02T03:04:06.000Z","mappingsRemoved":true,"purge":{"passes":1,"complete":true,"objectsDeleted":42},"secondPassDueAt":"2026-01-02T04:04:06.000Z","secondPassDoneAt":null}"#
        ),
        (
            "profile-purchases.json",
            #"{"version":1,"serviceUserID":"\#(uuid)","displayName":"Ada","email":null,"createdAt":"2026-11-01T10:00:00Z","lastUpdated":"2026-11-02T10:00:00Z","primaryProvider":"apple","subscription":{"tier":"premium","productID":"com.example.photos.premium.yearly","originalTransactionId":"2000000100000002","environment":"Production","status":"active","startDate":"2026-11-01T10:00:00Z","expiryDate":"2027-11-01T10:00:00Z","storageLimit":1099511627776,"storageUsed":0,"signedDate":"2026-11-01T10:00:00.123Z","purchases":[{"originalTransactionId":"2000000100000001","productID":"com.example.photos.premium.monthly","environment":"Production","status":"expired","tier":"premium","storageLimit":1099511627776,"startDate":"2026-10-01T10:00:00Z","expiryDate":"2026-11-01T10:00:00Z","signedDate":"2026-11-01T10:00:01.000Z"},{"originalTransactionId":"2000000100000002","productID":"com.example.photos.premium.yearly","environment":"Production","status":"active","tier":"premium","storageLimit":1099511627776,"startDate":"2026-11-01T10:00:00Z","expiryDate":"2027-11-01T10:00:00Z","signedDate":"2026-11-01T10:00:00.123Z"}]},"preferences":{"uploadQuality":"high","autoBackup":true,"wifiOnlyBackup":true}}"#
        ),
        (
            "purchase-state.json",
            #"{"productId":"com.example.photos.premium.monthly","environment":"Production","status":"revoked","purchaseDate":1763900000000,"expiresDate":1766492000000,"gracePeriodExpiresDate":null,"revocationDate":1763990000000,"signedDate":1763990000123}"#
        ),
    ]

    static var seeds: [(name: String, bytes: [UInt8])] {
        sources.map { source in
            let value = try! JSONParser.parse(Array(source.text.utf8))
            let written =
                ProvidersDocument(json: value)?.json ?? Profile(json: value)?.json ?? SessionRecord(json: value)?.json
                ?? DeletionRecord(json: value)?.json ?? PurchaseState(json: value)?.json
                ?? IdentitySuspension(json: value)?.recordJSON
            precondition(written != nil, "a document seed that no document type reads")
            return (source.name, written!.serialized())
        }
    }
}
