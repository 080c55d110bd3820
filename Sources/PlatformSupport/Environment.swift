#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process environment access (Lambda passes configuration this way).
package enum Environment {
    package static func get(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }

    /// The value, or nil when unset or empty (an empty variable means "use the default").
    package static func nonEmpty(_ name: String) -> String? {
        guard let v = get(name), !v.isEmpty else { return nil }
        return v
    }

    package static func set(_ name: String, _ value: String) { setenv(name, value, 1) }
    package static func unset(_ name: String) { unsetenv(name) }
}
