import AuthService
import LambdaRuntime

Lambda.run { context in
    let runtime = try ServiceRuntime.start(context, prefetchKeys: false)
    return FunctionHandler(RefreshOperation(runtime: runtime), http: runtime.http)
}
