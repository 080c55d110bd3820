import AuthService
import LambdaRuntime

Lambda.run { context in
    FunctionHandler(SignInOperation(runtime: try ServiceRuntime.start(context, prefetchKeys: true)))
}
