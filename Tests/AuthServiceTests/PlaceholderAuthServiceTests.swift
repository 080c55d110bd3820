import Testing
@testable import AuthService

@Test func AuthServiceModuleLinks() {}
