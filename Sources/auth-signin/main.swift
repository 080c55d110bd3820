import AuthService
import LambdaRuntime
import SignInFunction

Lambda.run { context in try AuthFunction.signin.start(context) }
