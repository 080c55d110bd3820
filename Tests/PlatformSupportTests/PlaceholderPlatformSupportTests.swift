import Testing
@testable import PlatformSupport

@Test func PlatformSupportModuleLinks() {}
