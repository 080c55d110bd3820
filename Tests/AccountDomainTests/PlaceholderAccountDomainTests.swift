import Testing
@testable import AccountDomain

// Replaced by the module's real tests.
@Test func AccountDomainModuleLinks() {}
