import AccountModel
import PlatformSupport
import PurchaseModel
import StrictJSON

/// AccountModel's stored documents (and each purchase's state): a document that parses re-serializes to JSON that parses to
/// an equal document (an older function never loses what it read, and never writes what it could
/// not read back).
enum DocumentFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        roundTrip(value, ProvidersDocument.init(json:), \.json, "documents: providers.json round trip")
        roundTrip(value, Profile.init(json:), \.json, "documents: profile.json round trip")
        roundTrip(value, SessionRecord.init(json:), \.json, "documents: session record round trip")
        roundTrip(value, DeletionRecord.init(json:), \.json, "documents: deletion record round trip")
        roundTrip(value, PurchaseState.init(json:), \.json, "documents: purchase state round trip")
        roundTrip(value, IdentitySuspension.init(json:), \.recordJSON, "documents: suspension record round trip")
        // A subscription's purchases (and a pre-v3 subscription read as one), once written, re-read
        // as themselves (`startDate`/`expiryDate` are written to the second, so the first write
        // may drop milliseconds; after that nothing changes).
        for entry in Subscription.claimed(in: value["subscription"] ?? value) {
            roundTrip(entry.entryJSON, Subscription.init(entry:), \.entryJSON, "documents: purchase entry round trip")
        }
    }

    static func roundTrip<T: Equatable>(
        _ value: JSONValue, _ read: (JSONValue) -> T?, _ write: (T) -> JSONValue, _ property: StaticString
    ) {
        guard let document = read(value) else { return }
        let again = (try? JSONParser.parse(write(document).serialized())).flatMap(read)
        require(again == document, property)
    }
}
