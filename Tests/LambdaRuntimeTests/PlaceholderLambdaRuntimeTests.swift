import Testing
@testable import LambdaRuntime

@Test func LambdaRuntimeModuleLinks() {}
