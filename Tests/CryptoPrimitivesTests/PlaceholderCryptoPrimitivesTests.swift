import Testing
@testable import CryptoPrimitives

@Test func CryptoPrimitivesModuleLinks() {}
