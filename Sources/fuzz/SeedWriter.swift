#if canImport(Glibc)
import Glibc
#endif

/// Whole files in and out with libc (no Foundation in Sources).
enum SeedWriter {
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            bytes += buffer[..<n]
            if n < buffer.count { return ferror(file) == 0 ? bytes : nil }
        }
    }

    /// Each seed as `DIR/NAME`; false when one cannot be written.
    static func write(_ seeds: [(name: String, bytes: [UInt8])], to directory: String) -> Bool {
        for seed in seeds {
            guard let file = fopen(directory + "/" + seed.name, "wb") else { return false }
            let written = fwrite(seed.bytes, 1, seed.bytes.count, file)
            guard fclose(file) == 0, written == seed.bytes.count else { return false }
        }
        return true
    }
}
