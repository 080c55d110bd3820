import Testing
@testable import CurlHTTP

@Test func CurlHTTPModuleLinks() {}
