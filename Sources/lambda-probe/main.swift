// A test-only function for the runtime's tests and benchmark. Its behaviour is chosen by the
// event (or, for init, by PROBE_INIT_FAIL), never by anything a real function would see.
import LambdaRuntime
import PlatformSupport
import StrictJSON

struct ProbeFailure: LambdaFunctionError {
    var errorType: String { "Probe.Deliberate" }
    var errorMessage: String { "the probe was asked to fail" }
}

struct ProbeInitFailure: LambdaFunctionError {
    var errorType: String { "Probe.InitFailure" }
    var errorMessage: String { "PROBE_INIT_FAIL is set" }
}

final class Probe: LambdaHandler {
    var invocations = 0

    /// {"mode":"echo"} (default) answers the event; "context" answers what the runtime passed in;
    /// "throw" throws; "big" answers N bytes.
    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        invocations += 1
        let parsed = try? JSONParser.parse(event)
        switch parsed?["mode"]?.stringValue ?? "echo" {
        case "throw":
            throw ProbeFailure()
        case "big":
            let n = Int(parsed?["bytes"]?.int64Value ?? 7_000_000)
            return [UInt8](repeating: UInt8(ascii: "x"), count: n)
        case "context":
            let obj = JSONObject([
                ("requestId", .string(context.requestID)),
                ("remainingMs", .int(context.remainingMilliseconds)),
                ("deadlineMs", .int(context.deadlineMilliseconds)),
                ("functionArn", .string(context.invokedFunctionARN)),
                ("traceId", context.traceID.map(JSONValue.string) ?? .null),
                ("envTraceId", Environment.get("_X_AMZN_TRACE_ID").map(JSONValue.string) ?? .null),
                ("clientContext", context.clientContext.map(JSONValue.string) ?? .null),
                ("cognitoIdentity", context.cognitoIdentity.map(JSONValue.string) ?? .null),
                ("invocations", .int(invocations)),
                ("pid", .int(Int(getpid()))),
            ])
            return JSONValue.object(obj).serialized()
        default:
            return event
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

Lambda.run { _ in
    if Environment.nonEmpty("PROBE_INIT_FAIL") != nil { throw ProbeInitFailure() }
    return Probe()
}
