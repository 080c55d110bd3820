import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// Standard streams without Foundation: one write(2) per line, terminal checks, the prompt.
enum Terminal {
    static var stdinIsTerminal: Bool { isatty(0) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    static func err(_ line: String) { write(fd: 2, line + "\n") }
    static func out(_ line: String) { write(fd: 1, line + "\n") }

    static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// A progress line that rewrites itself on a terminal; nothing otherwise.
    static func progress(_ text: String) {
        guard stderrIsTerminal else { return }
        write(fd: 2, "\r\u{1B}[K" + text)
    }

    static func endProgress() { if stderrIsTerminal { write(fd: 2, "\r\u{1B}[K") } }

    /// Destructive commands: a terminal answers "yes"; elsewhere `--yes` is required.
    static func confirm(_ question: String, yes: Bool) throws {
        if yes { return }
        guard stdinIsTerminal else {
            throw ValidationError("this changes the account: pass --yes when standard input is not a terminal")
        }
        write(fd: 2, question + " Type 'yes' to go on: ")
        guard let answer = readLine(), answer.trimmingCharacters() == "yes" else {
            throw CleanExit.message("Nothing changed.")
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\r" }.reversed())
    }
}
