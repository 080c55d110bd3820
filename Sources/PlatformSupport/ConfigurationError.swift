/// A setting the process cannot start with: which variable, and what is wrong with it (never its
/// value, which may be a secret). Every module that reads configuration throws this one shape;
/// the service reports it to the Runtime API's init-error endpoint.
package struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    package let variable: String
    package let message: String

    package init(variable: String, message: String) {
        self.variable = variable
        self.message = message
    }

    package var description: String { "\(variable) \(message)" }
}
