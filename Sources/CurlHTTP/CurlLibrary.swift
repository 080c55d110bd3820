internal import CCurlShim

/// Loads libcurl once per process (see CCurlShim). Every handle constructor calls `ensureLoaded`.
package enum CurlLibrary {
    nonisolated(unsafe) private static var loadError: String??

    /// Loads libcurl if needed; throws with the loader's message when it cannot be had.
    static func ensureLoaded() throws(HTTPError) {
        if loadError == nil {
            // Happens on the single start-up thread before any handle exists.
            loadError = .some(ccurl_load().map { String(cString: $0) })
        }
        if case .some(.some(let message)) = loadError { throw HTTPError(kind: .other, message: message) }
    }

    /// The loaded libcurl's version, for the start-up log line.
    package static var version: String? { ccurl_version().map { String(cString: $0) } }
}
