import AccountEvents
import AccountModel
import AccountSessions
import AccountStore
import LambdaRuntime
import PlatformSupport
import StrictJSON

/// The one path every invocation takes: parse the event once and tell its shape; choose the
/// action; check the time left; run it; map any failure to the contract's code in one place;
/// answer in the envelope, shaped for the caller. Only a failure no mapping knows (a bug) is
/// thrown, to the Runtime API's error endpoint.
package final class ServiceHandler: LambdaHandler {
    /// Below this much remaining time nothing is started: the answer is UPSTREAM_UNAVAILABLE.
    package static let minimumRemainingMilliseconds: Int64 = 500
    /// Requests stop this long before the invocation's deadline, so the answer can still go out.
    package static let answerMarginMilliseconds: Int64 = 300

    package let function: AuthFunction
    package let dependencies: ServiceDependencies
    /// The metric records' directive, the same for every invocation.
    package let metricsDirective: JSONValue

    package init(function: AuthFunction, dependencies: ServiceDependencies) {
        self.function = function
        self.dependencies = dependencies
        metricsDirective = InvocationMetrics.directive(namespace: dependencies.configuration.metricsNamespace)
    }

    package func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        let http = dependencies.http
        http.resetCounters()
        let started = Clock.nowMilliseconds()
        defer {
            // Each invocation's S3/STS/JWKS requests and sequential rounds (the bench reads them).
            if context.logger.isEnabled(.debug) {
                context.logger.debug(
                    "network", [("requests", .int(http.requestCount)), ("rounds", .int(http.roundCount))])
            }
        }
        var metrics = InvocationMetrics(
            namespace: dependencies.configuration.metricsNamespace, function: function.name, operation: "invalid",
            outcome: .refused, durationMilliseconds: 0, upstreamRequests: 0, upstreamRetries: 0,
            timestampMilliseconds: started, directive: metricsDirective)
        func record(_ outcome: InvocationMetrics.Outcome, _ code: ErrorCode?) {
            metrics.outcome = outcome
            metrics.errorCode = code?.rawValue
            metrics.durationMilliseconds = Double(Clock.nowMilliseconds() - started)
            (metrics.upstreamRequests, metrics.upstreamRetries) = (http.requestCount, http.retryCount)
            context.logger.record(metrics.record)
        }
        if function.servesAppleWebReturn, AppleWebReturn.isReturnURLRequest(event) {
            // Apple's form_post: a redirect or a 400 page, never the envelope. The metric counts it;
            // no line carries anything of the form.
            metrics.operation = "appleWebReturn"
            let (response, redirected) = AppleWebReturn.answer(
                event, target: dependencies.configuration.appleWebReturnTarget)
            record(redirected ? .success : .refused, nil)
            return response
        }
        switch Invocation.parse(event) {
        case .failure(let refusal):
            record(.refused, refusal.error.code)
            return answer(.failure(refusal.error), status: nil, shape: refusal.shape, context: context)
        case .success(let invocation):
            let performed: Performed
            do { performed = try perform(invocation, context: context) } catch {
                record(.unclassified, nil)  // a bug: counted before the Runtime API reports it
                throw error
            }
            if let action = performed.action { metrics.operation = type(of: action).name }
            if performed.reuseDetected { metrics.counts["ReuseDetected"] = 1 }
            switch performed.result {
            case .success(let answer):
                metrics.counts.merge(answer.counts) { $1 }
                for audit in answer.audits { context.logger.record(audit.record) }
                record(.success, nil)
            case .failure(let error): record(.refused, error.code)
            }
            let status: Int?
            switch performed.result {
            case .success: status = performed.action?.successStatus
            case .failure(let error): status = performed.action?.httpStatus(for: error)
            }
            return answer(performed.result, status: status, shape: invocation.shape, context: context)
        }
    }

    /// What `perform` did: the answer or the contract's error, the action when one was chosen
    /// (to pick its HTTP status), and whether a replaced refresh token was presented (the
    /// session was revoked: a stolen-token signal).
    package struct Performed {
        package var result: Result<Answer, ServiceError>
        package var action: (any Action)?
        package var reuseDetected = false
    }

    /// Runs the invocation's action; an expected failure comes back as the contract's error.
    package func perform(_ invocation: Invocation, context: LambdaContext) throws -> Performed {
        var action: (any Action)?
        do {
            let deadline = Deadline(
                epochMilliseconds: context.deadlineMilliseconds - ServiceHandler.answerMarginMilliseconds)
            guard deadline.remainingMilliseconds > ServiceHandler.minimumRemainingMilliseconds else {
                throw ServiceError(.upstreamUnavailable, "Too little time is left in this invocation; retry.")
            }
            // The providers named in "unsupported provider" messages are this deployment's.
            let accepted = dependencies.configuration.verifier.enabledProviders
            action = try function.action(
                for: invocation.accepting(accepted).invoked(through: context.invokedFunctionARN))
            return Performed(result: .success(try action!.run(dependencies, deadline: deadline)), action: action)
        } catch {
            let mapped = try ErrorMapping.serviceError(for: error, provider: action?.provider)
            return Performed(
                result: .failure(mapped), action: action, reuseDetected: (error as? AccountError)?.isTokenReuse == true)
        }
    }

    /// The envelope in the invocation's shape; `status` overrides 200 or the code's HTTP status
    /// (an event's sender retries on some statuses and not others, and expects its own success).
    package func answer(
        _ result: Result<Answer, ServiceError>, status: Int?, shape: Invocation.Shape, context: LambdaContext
    ) -> [UInt8] {
        switch result {
        case .success(let answer):
            if !answer.log.isEmpty { context.logger.info("answered", answer.log) }
            return shape.wrap(Envelope.success(answer.data, requestID: context.requestID), statusCode: status ?? 200)
        case .failure(let error):
            context.logger.debug("refused", [("code", .string(error.code.rawValue))])
            return shape.wrap(
                Envelope.failure(error, requestID: context.requestID), statusCode: status ?? error.code.httpStatus)
        }
    }
}
