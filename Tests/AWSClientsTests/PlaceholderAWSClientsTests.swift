import Testing
@testable import AWSClients

// Replaced by the module's real tests.
@Test func AWSClientsModuleLinks() {}
