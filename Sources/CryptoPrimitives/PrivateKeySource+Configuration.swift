import PlatformSupport

extension PrivateKeySource {
    /// Exactly one of `Variables.pem` / `Variables.parameter` (`value` gives nil for an unset or
    /// empty variable), the parameter's name checked against SSM's rule at init, so a typo stops
    /// the start rather than the first request that needs the key. `enabler` is the variable
    /// whose presence makes the key required, for the error when neither is set. Errors name the
    /// variable and the rule, never the value.
    package static func from(
        environment value: (String) -> String?, requiredWhenSet enabler: String
    ) throws(ConfigurationError) -> Self {
        switch (value(Variables.pem), value(Variables.parameter)) {
        case (nil, nil):
            throw ConfigurationError(
                variable: Variables.pem, message: "or \(Variables.parameter) must be set when \(enabler) is")
        case (.some, .some):
            throw ConfigurationError(
                variable: Variables.pem, message: "and \(Variables.parameter) are both set (set one)")
        case (let pem?, nil):
            return .pem(pem)
        case (nil, let name?):
            guard SSMParameterName.isValid(name) else {
                throw ConfigurationError(
                    variable: Variables.parameter, message: "must be 1-2048 characters of [A-Za-z0-9_./-]")
            }
            return .parameter(name: name)
        }
    }

    /// The P-256 key in `pem` (this source's PEM, or the SSM parameter's value); a PEM that is not
    /// a P-256 key is a configuration error naming `variable`, with `message` about the error
    /// (never the PEM).
    package func p256Key(
        pem: String, message: (P256PrivateKey.KeyError) -> String
    ) throws(ConfigurationError) -> P256PrivateKey {
        do throws(P256PrivateKey.KeyError) { return try P256PrivateKey(pem: pem) } catch {
            throw ConfigurationError(variable: variable, message: message(error))
        }
    }
}
