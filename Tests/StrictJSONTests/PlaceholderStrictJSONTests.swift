import Testing
@testable import StrictJSON

@Test func StrictJSONModuleLinks() {}
