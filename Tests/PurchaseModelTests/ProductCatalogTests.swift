import AccountTestSupport
import Testing

/// `APPSTORE_PRODUCTS` as the catalog reads it: each refusal names the broken rule, never the value.
@Suite struct ProductCatalogTests {
    @Test func entriesAreReadWithTheirTierAndStorage() throws {
        let catalog = try ProductCatalog.parse("com.example.plus=plus:1073741824, com.example.pro=pro:2199023255552")
        let plus = try #require(catalog.product("com.example.plus"))
        #expect(plus.tier == "plus" && plus.storageLimit == 1_073_741_824)
        #expect(catalog.product("com.example.pro")?.storageLimit == 2_199_023_255_552)
        #expect(catalog.product("com.example.other") == nil)
    }

    @Test(arguments: [
        ("com.example.plus", "each entry must be productId=tier:storageBytes"),
        ("com.example.plus=plus:0", "storageBytes must be a positive whole number"),
        ("com.example.plus=plus:-5", "storageBytes must be a positive whole number"),
        ("com.example.plus=pl us:5", "a tier must be 1-64 of [A-Za-z0-9-]"),
        ("com example=plus:5", "a product id must be 1-255 of [A-Za-z0-9._-]"),
        ("a=plus:5,a=pro:6", "a product id is listed twice"),
        ("a=plus:5,", "each entry must be productId=tier:storageBytes"),
    ])
    func aBrokenEntryIsRefusedByItsRule(text: String, rule: String) {
        #expect(throws: ProductCatalog.ParseError.self) { try ProductCatalog.parse(text) }
        do {
            _ = try ProductCatalog.parse(text)
        } catch {
            #expect(error.rule == rule)
            #expect(!error.rule.contains("plus:"), "the rule, never the value")
        }
    }

    @Test func theFreeTierIsTheSeedsTwoHundredMegabytes() {
        #expect(ProductCatalog.free.tier == "free" && ProductCatalog.free.storageLimit == 200 * 1_048_576)
    }
}
