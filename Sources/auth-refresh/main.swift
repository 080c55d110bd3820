import AuthService
import LambdaRuntime

Lambda.run { context in try AuthFunction.refresh.start(context) }
