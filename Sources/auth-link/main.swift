import AuthService
import LambdaRuntime

Lambda.run { context in
    let runtime = try ServiceRuntime.start(context, prefetchKeys: true)
    return FunctionHandler(LinkOperation(runtime: runtime), http: runtime.http)
}
