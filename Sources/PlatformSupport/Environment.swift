#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process environment access (Lambda passes configuration this way).
public enum Environment {
    public static func get(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }

    /// The value, or nil when unset or empty (an empty variable means "use the default").
    public static func nonEmpty(_ name: String) -> String? {
        guard let v = get(name), !v.isEmpty else { return nil }
        return v
    }

    public static func set(_ name: String, _ value: String) { setenv(name, value, 1) }
    public static func unset(_ name: String) { unsetenv(name) }
}
