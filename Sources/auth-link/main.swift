import AuthService
import LambdaRuntime

Lambda.run { context in
    FunctionHandler(LinkOperation(runtime: try ServiceRuntime.start(context, prefetchKeys: true)))
}
