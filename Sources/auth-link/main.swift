import AuthService
import LambdaRuntime

Lambda.run { _ in PendingHandler(functionName: "auth-link") }
