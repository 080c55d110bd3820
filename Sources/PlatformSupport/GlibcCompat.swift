#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// The static Swift standard library references `hypotf`, and Debian 12's glibc binds that name
/// (and `hypot`) to their newest versions, `@GLIBC_2.35`. Amazon Linux 2023 (`provided.al2023`)
/// has glibc 2.34, whose loader refuses a binary that needs 2.35, before `main`. Defining the
/// function here, in a module every executable links as object files, resolves the standard
/// library's reference at static link time, so the bootstrap imports no `hypotf` at all. It calls
/// nothing in libm: Float squares are exact in Double and cannot overflow or underflow there, so
/// one rounded sum and `squareRoot()` (an instruction) give the Float result.
/// `scripts/bench.d/10-runtime` prints the newest GLIBC version the bootstrap needs.
/// Public although no Swift module calls it: its user is the standard library, through the C
/// symbol, which must stay a global definition the static linker can bind to.
@_cdecl("hypotf")
package func _platformSupportHypotf(_ x: Float, _ y: Float) -> Float {
    if x.isInfinite || y.isInfinite { return .infinity }  // IEEE 754: even when the other is NaN
    let a = Double(x), b = Double(y)
    return Float((a * a + b * b).squareRoot())
}

/// The release build links libstdc++ statically (Makefile, `scripts/bench`: a faster start and one
/// library fewer to map; docs/decisions/runtime-and-http.md, "libstdc++ is linked statically"), and
/// Debian 12's `libstdc++.a` (GCC 12) calls `arc4random` from `std::random_device`: a glibc 2.36
/// function, which Amazon Linux 2023's 2.34 does not have. Defined here, as `hypotf` above, over
/// the stdlib's CSPRNG (getrandom(2), which is what glibc's own `arc4random` reads), so the
/// bootstrap imports no `arc4random@GLIBC_2.36`. Nothing of ours calls it.
@_cdecl("arc4random")
package func _platformSupportArc4random() -> UInt32 {
    var generator = SystemRandomNumberGenerator()
    return UInt32(truncatingIfNeeded: generator.next())
}
#endif
