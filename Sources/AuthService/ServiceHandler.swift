import AccountDomain
import LambdaRuntime
import PlatformSupport
import StrictJSON

/// The one path every invocation takes: parse the event once and tell its shape; choose the
/// action; check the time left; run it; map any failure to the contract's code in one place;
/// answer in the envelope, shaped for the caller. Only a failure no mapping knows (a bug) is
/// thrown, to the Runtime API's error endpoint.
final class ServiceHandler: LambdaHandler {
    /// Below this much remaining time nothing is started: the answer is UPSTREAM_UNAVAILABLE.
    static let minimumRemainingMilliseconds: Int64 = 500
    /// Requests stop this long before the invocation's deadline, so the answer can still go out.
    static let answerMarginMilliseconds: Int64 = 300

    let function: AuthFunction
    let dependencies: ServiceDependencies

    init(function: AuthFunction, dependencies: ServiceDependencies) {
        self.function = function
        self.dependencies = dependencies
    }

    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        let http = dependencies.http
        http.resetCounters()
        defer {
            // Each invocation's S3/STS/JWKS requests and sequential rounds (the bench reads them).
            if context.logger.isEnabled(.debug) {
                context.logger.debug(
                    "network", [("requests", .int(http.requestCount)), ("rounds", .int(http.roundCount))])
            }
        }
        switch Invocation.parse(event) {
        case .failure(let refusal):
            return answer(.failure(refusal.error), shape: refusal.shape, context: context)
        case .success(let invocation):
            return answer(try perform(invocation.request, context: context), shape: invocation.shape, context: context)
        }
    }

    /// Runs the request's action; an expected failure comes back as the contract's error.
    func perform(_ request: Request, context: LambdaContext) throws -> Result<Answer, ServiceError> {
        var action: (any Action)?
        do {
            let deadline = Deadline(
                epochMilliseconds: context.deadlineMilliseconds - ServiceHandler.answerMarginMilliseconds)
            guard deadline.remainingMilliseconds > ServiceHandler.minimumRemainingMilliseconds else {
                throw ServiceError(.upstreamUnavailable, "Too little time is left in this invocation; retry.")
            }
            var request = request
            request.acceptedProviders = dependencies.configuration.verifier.enabledProviders
            action = try function.action(for: request)
            return .success(try action!.run(dependencies, deadline: deadline))
        } catch {
            return .failure(try ErrorMapping.serviceError(for: error, provider: action?.provider))
        }
    }

    func answer(_ result: Result<Answer, ServiceError>, shape: Invocation.Shape, context: LambdaContext) -> [UInt8] {
        switch result {
        case .success(let answer):
            return shape.wrap(Envelope.success(answer.data, requestID: context.requestID), statusCode: 200)
        case .failure(let error):
            context.logger.debug("refused", [("code", .string(error.code.rawValue))])
            return shape.wrap(Envelope.failure(error, requestID: context.requestID), statusCode: error.code.httpStatus)
        }
    }
}
