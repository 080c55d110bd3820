import AuthService
import LambdaRuntime

Lambda.run { context in
    FunctionHandler(RefreshOperation(runtime: try ServiceRuntime.start(context, prefetchKeys: false)))
}
