import AuthService
import LambdaRuntime

Lambda.run { context in try AuthFunction.link.start(context) }
