import PlatformSupport

/// What each App Store product grants (`APPSTORE_PRODUCTS`: `productId=tier:storageBytes,...`),
/// and the free tier an expired or revoked purchase falls back to.
package struct ProductCatalog: Sendable, Equatable {
    package struct Product: Sendable, Equatable {
        package var tier: String
        package var storageLimit: Int64

        package init(tier: String, storageLimit: Int64) {
            self.tier = tier
            self.storageLimit = storageLimit
        }
    }

    /// The free tier's storage (the seeds' 200 MB), what an account without a purchase gets.
    package static let freeStorageLimit: Int64 = 209_715_200
    package static let free = Product(tier: "free", storageLimit: ProductCatalog.freeStorageLimit)

    package private(set) var products: [String: Product] = [:]

    package init() {}

    package func product(_ id: String) -> Product? { products[id] }

    /// Why a configuration value was refused: the broken rule, never the value.
    package struct ParseError: Error, Sendable { package let rule: String }

    /// Parses the configuration value: `productId=tier:bytes` entries separated by commas.
    package static func parse(_ text: String) throws(ParseError) -> ProductCatalog {
        var catalog = ProductCatalog()
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = String(entry).trimmingASCIISpaces()
            guard let eq = item.firstIndex(of: "="), let colon = item.lastIndex(of: ":"), eq < colon else {
                throw ParseError(rule: "each entry must be productId=tier:storageBytes")
            }
            let id = String(item[..<eq]), tier = String(item[item.index(after: eq)..<colon])
            guard isProductID(id) else { throw ParseError(rule: "a product id must be 1-255 of [A-Za-z0-9._-]") }
            guard !tier.isEmpty, tier.utf8.count <= 64, tier.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 0x2D })
            else {
                throw ParseError(rule: "a tier must be 1-64 of [A-Za-z0-9-]")
            }
            guard let bytes = Int64(item[item.index(after: colon)...]), bytes > 0 else {
                throw ParseError(rule: "storageBytes must be a positive whole number")
            }
            guard catalog.products[id] == nil else { throw ParseError(rule: "a product id is listed twice") }
            catalog.products[id] = Product(tier: tier, storageLimit: bytes)
        }
        return catalog
    }

    package static func isProductID(_ s: String) -> Bool {
        (1...255).contains(s.utf8.count)
            && s.utf8.allSatisfy { ASCII.isAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
