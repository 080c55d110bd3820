import AuthService
import LambdaRuntime
import RefreshFunction

Lambda.run { context in try AuthFunction.refresh.start(context) }
