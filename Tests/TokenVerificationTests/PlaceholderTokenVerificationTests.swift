import Testing
@testable import TokenVerification

// Replaced by the module's real tests.
@Test func TokenVerificationModuleLinks() {}
