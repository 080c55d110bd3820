import Testing
@testable import SigV4

// Replaced by the module's real tests.
@Test func SigV4ModuleLinks() {}
