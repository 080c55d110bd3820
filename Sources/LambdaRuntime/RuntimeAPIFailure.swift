/// The Runtime API refused or failed in a way the process cannot recover from (unreachable, a
/// 5xx, a `next` without a request id). The loop ends with it and the process exits non-zero.
struct RuntimeAPIFailure: Error, Equatable, CustomStringConvertible {
    let description: String
}
