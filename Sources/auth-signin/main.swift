import AuthService
import LambdaRuntime

Lambda.run { context in try AuthFunction.signin.start(context) }
