internal import CMallocShim
import CurlHTTP
import PlatformSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime: init, then `next` → handler → response or error, until the Runtime API fails.
package enum Lambda {
    /// Lambda's synchronous-invoke payload limit. A larger answer is reported as an error the
    /// caller sees, instead of being refused by the Runtime API and lost.
    static let maxResponseBytes = 6 * 1024 * 1024

    /// Runs the function. `makeHandler` runs once, before the first `next`; if it throws, the
    /// failure is posted to `/runtime/init/error` and the process exits non-zero. The process
    /// also exits non-zero when the Runtime API fails (`LambdaExit` has the statuses).
    package static func run<H: LambdaHandler>(_ makeHandler: (InitContext) throws -> H) -> Never {
        // Before anything sizeable is allocated (CMallocShim says which settings, and why).
        _ = cmalloc_settle_for_one_thread()
        let logger = Logger.fromEnvironment()
        guard let endpoint = Environment.nonEmpty("AWS_LAMBDA_RUNTIME_API") else {
            logger.log(
                .fatal,
                "AWS_LAMBDA_RUNTIME_API is not set: this program runs under Lambda or its emulator (scripts/invoke)")
            exit(LambdaExit.runtimeAPINotConfigured.status)
        }
        let client: RuntimeAPIClient
        do throws(HTTPError) {
            client = try RuntimeAPIClient(endpoint: endpoint)
        } catch {
            logger.log(.fatal, "cannot start the runtime client: \(error.message)")
            exit(LambdaExit.clientUnavailable.status)
        }
        let functionName = Environment.get("AWS_LAMBDA_FUNCTION_NAME") ?? "local"
        exit(run(client: client, logger: logger, functionName: functionName, makeHandler).status)
    }

    /// Init, then the loop, against any Runtime API client; returns instead of exiting so the
    /// tests can run it against a mock.
    static func run<C: RuntimeAPIClientProtocol, H: LambdaHandler>(
        client: C, logger: Logger, functionName: String, _ makeHandler: (InitContext) throws -> H
    ) -> LambdaExit {
        let handler: H
        do {
            handler = try makeHandler(InitContext(logger: logger, functionName: functionName))
        } catch {
            let diagnostic = Diagnostic(error, fallbackType: "Runtime.InitError")
            logger.log(
                .fatal, "init failed",
                [("errorType", .string(diagnostic.errorType)), ("errorMessage", .string(diagnostic.errorMessage))])
            do throws(RuntimeAPIFailure) { try client.postInitError(diagnostic) } catch {
                logger.log(.fatal, error.description)
            }
            return .initFailed(diagnostic)
        }
        do throws(RuntimeAPIFailure) {
            try loop(client: client, handler: handler, logger: logger)
            return .noMoreInvocations
        } catch {
            // Unreachable or failing Runtime API: Lambda expects the process to exit.
            logger.log(.fatal, "runtime API failure, exiting", [("reason", .string(error.description))])
            return .runtimeAPIFailed(error)
        }
    }
}
