import StrictJSON
import Testing

@testable import LambdaRuntime

private struct Typed: LambdaFunctionError {
    var errorType: String { "Auth.Broken" }
    var errorMessage: String { "named failure" }
}

private struct Untyped: Error, CustomStringConvertible {
    let secret = "token-abc"
    var description: String { "failed on \(secret)" }
}

@Suite struct DiagnosticTests {
    @Test func documentShape() throws {
        let doc = try JSONParser.parse(Diagnostic(errorType: "Function.X", errorMessage: "it \"broke\"\n").document)
        #expect(doc.objectValue?.keys == ["errorType", "errorMessage", "stackTrace"])
        #expect(doc["errorType"] == "Function.X" && doc["errorMessage"] == "it \"broke\"\n")
        #expect(doc["stackTrace"] == .array([]))
    }

    @Test func aLambdaFunctionErrorNamesItselfAnyOtherOnlyItsType() {
        let typed = Diagnostic(Typed(), fallbackType: "Function.UnhandledError")
        #expect(typed == Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure"))
        let untyped = Diagnostic(Untyped(), fallbackType: "Function.UnhandledError")
        #expect(untyped == Diagnostic(errorType: "Function.UnhandledError", errorMessage: "Untyped"))
        #expect(!String(decoding: untyped.document, as: UTF8.self).contains("token"))  // never the description
    }

    @Test func tooLarge() {
        let d = Diagnostic.responseTooLarge(bytes: 7_000_000, limit: 6_291_456)
        #expect(d.errorType == "Function.ResponseSizeTooLarge")
        #expect(
            d.errorMessage
                == "Response payload size (7000000 bytes) exceeded maximum allowed payload size (6291456 bytes).")
        #expect(Diagnostic.refusedAsTooLarge.errorType == "Function.ResponseSizeTooLarge")
    }
}
