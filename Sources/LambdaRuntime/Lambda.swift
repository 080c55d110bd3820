#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CurlHTTP
import PlatformSupport
import StrictJSON

/// The runtime loop: init, then `next` → handler → `response` or `error`, forever.
public enum Lambda {
    /// Lambda's synchronous-invoke payload limit. A larger answer is reported as an error the
    /// caller sees, instead of being refused by the Runtime API and lost.
    public static let maxResponseBytes = 6 * 1024 * 1024

    /// Runs the function. `makeHandler` runs once, before the first `next`; if it throws, the
    /// failure is posted to `/runtime/init/error` and the process exits non-zero.
    public static func run<H: LambdaHandler>(_ makeHandler: (InitContext) throws -> H) -> Never {
        let logger = Logger.fromEnvironment()
        guard let endpoint = Environment.nonEmpty("AWS_LAMBDA_RUNTIME_API") else {
            logger.log(.fatal, "AWS_LAMBDA_RUNTIME_API is not set: this program runs under Lambda or its emulator (scripts/invoke)")
            exit(2)
        }
        let client: RuntimeAPIClient
        do throws(HTTPError) {
            client = try RuntimeAPIClient(endpoint: endpoint)
        } catch {
            logger.log(.fatal, "cannot start the runtime client: \(error.message)")
            exit(3)
        }
        let functionName = Environment.get("AWS_LAMBDA_FUNCTION_NAME") ?? "local"
        let handler: H
        do {
            handler = try makeHandler(InitContext(logger: logger, functionName: functionName))
        } catch {
            let (type, message) = describe(error, fallbackType: "Runtime.InitError")
            logger.log(.fatal, "init failed", [("errorType", .string(type)), ("errorMessage", .string(message))])
            do throws(RuntimeAPIClient.Failure) { try client.reportInitError(errorType: type, message: message) } catch {
                logger.log(.fatal, error.description)
            }
            exit(1)
        }
        loop(client: client, handler: handler, logger: logger)
    }

    static func loop<H: LambdaHandler>(client: RuntimeAPIClient, handler: H, logger: Logger) -> Never {
        while true {
            do throws(RuntimeAPIClient.Failure) {
                let invocation = try client.next()
                try serve(invocation, client: client, handler: handler, logger: logger)
            } catch {
                // Unreachable or failing Runtime API: Lambda expects the process to exit.
                logger.log(.fatal, "runtime API failure, exiting", [("reason", .string(error.description))])
                exit(4)
            }
        }
    }

    static func serve<H: LambdaHandler>(_ inv: RuntimeAPIClient.Invocation, client: RuntimeAPIClient, handler: H, logger: Logger) throws(RuntimeAPIClient.Failure) {
        let started = Clock.monotonicNanoseconds()
        if let trace = inv.traceID { Environment.set("_X_AMZN_TRACE_ID", trace) } else { Environment.unset("_X_AMZN_TRACE_ID") }
        let log = logger.with(requestID: inv.requestID)
        let context = LambdaContext(requestID: inv.requestID, deadlineMilliseconds: inv.deadlineMilliseconds,
                                    invokedFunctionARN: inv.invokedFunctionARN, traceID: inv.traceID,
                                    clientContext: inv.clientContext, cognitoIdentity: inv.cognitoIdentity, logger: log)
        var outcome = "ok"
        var fields: [(String, JSONValue)] = []
        do {
            let body = try handler.handle(inv.event, context: context)
            if body.count > maxResponseBytes {
                outcome = "error"
                fields.append(("errorType", .string("Function.ResponseSizeTooLarge")))
                try client.reportError(requestID: inv.requestID, errorType: "Function.ResponseSizeTooLarge",
                                       message: "Response payload size (\(body.count) bytes) exceeded maximum allowed payload size (\(maxResponseBytes) bytes).")
            } else {
                let status = try client.respond(requestID: inv.requestID, body: body)
                if status == 413 {
                    outcome = "error"
                    fields.append(("errorType", .string("Function.ResponseSizeTooLarge")))
                    try client.reportError(requestID: inv.requestID, errorType: "Function.ResponseSizeTooLarge", message: "The Runtime API refused the response as too large.")
                } else if status >= 400 {
                    outcome = "rejected"
                    fields.append(("status", .int(status)))
                }
            }
        } catch let failure as RuntimeAPIClient.Failure {
            throw failure
        } catch {
            outcome = "error"
            let (type, message) = describe(error, fallbackType: "Function.UnhandledError")
            fields.append(("errorType", .string(type)))
            try client.reportError(requestID: inv.requestID, errorType: type, message: message)
        }
        let level: Logger.Level = outcome == "ok" ? .info : .error
        if log.isEnabled(level) {
            let durationMs = milliseconds(micros: (Clock.monotonicNanoseconds() - started) / 1000)
            log.log(level, "invocation", [("outcome", .string(outcome)), ("durationMs", .number(durationMs))] + fields)
        }
    }

    /// "12.34": microseconds as milliseconds with two decimals (a valid JSON number).
    static func milliseconds(micros: UInt64) -> String {
        String(micros / 1000) + "." + String(100 + micros % 1000 / 10).dropFirst()
    }

    static func describe(_ error: any Error, fallbackType: String) -> (String, String) {
        if let e = error as? any LambdaFunctionError { return (e.errorType, e.errorMessage) }
        return (fallbackType, String(describing: type(of: error)))
    }
}
