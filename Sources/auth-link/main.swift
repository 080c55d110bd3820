import AuthService
import LambdaRuntime
import LinkFunction

Lambda.run { context in try AuthFunction.link.start(context) }
