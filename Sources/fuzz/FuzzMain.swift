#if FUZZING
import CFuzzerDriver
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `fuzz TARGET [ARGUMENTS]`. Built by scripts/fuzz (`-D FUZZING`, ASan, coverage, libFuzzer's
/// no-main runtime), the arguments are libFuzzer's (flags, then corpus directories or inputs). A
/// plain `swift build` links the same targets without libFuzzer: then the arguments are input
/// files, each run once (a crash reproduces without the sanitizers), and `fuzz seeds TARGET DIR`
/// writes the seeds that the code itself produces (documents, tokens, timestamps).
@main
enum FuzzMain {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "seeds", let target = FuzzTarget(rawValue: arguments[2]) {
            exit(SeedWriter.write(target.generatedSeeds, to: arguments[3]) ? 0 : 1)
        }
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
            print("usage: fuzz TARGET [ARGUMENTS] | fuzz seeds TARGET DIR   (targets: \(names))")
            exit(2)
        }
        FuzzTarget.selected = target
        #if FUZZING
        // libFuzzer reads every argument as its own: the target's name is taken out.
        let count = Int(CommandLine.argc) - 1
        let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: count + 1)
        argv[0] = CommandLine.unsafeArgv[0]
        for i in 1..<count { argv[i] = CommandLine.unsafeArgv[i + 1] }
        argv[count] = nil
        var argc = CInt(count)
        var argvPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        exit(
            LLVMFuzzerRunDriver(&argc, &argvPointer) { data, size in
                FuzzTarget.selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            })
        #else
        for path in arguments.dropFirst(2) {
            guard let bytes = SeedWriter.read(path) else {
                print("fuzz: cannot read \(path)")
                exit(1)
            }
            target.run(bytes)
        }
        print("fuzz \(target.rawValue): \(arguments.count - 2) inputs run")
        #endif
    }
}
