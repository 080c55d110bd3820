import Benchmark

#if canImport(Glibc)
import Glibc
#endif

// The backend's micro-benchmarks, one suite; names without spaces, as the threshold files are named
// after them and `thresholds check` looks them up by the raw name (docs/decisions/tests-and-tools.md, "The micro-benchmarks
// are a package of their own"). Each counts mallocs and wall time, and instructions where the machine
// has hardware counters perf can read (not in a VM without a PMU, such as this project's CI). The
// thresholds in ../Thresholds hold the malloc counts, which do not depend on how busy the machine is,
// so `swift package benchmark thresholds check --metric mallocCountTotal` (scripts/check-benchmarks)
// fails on an allocation regression. Wall time is printed, never checked.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: BenchmarkLimits.metrics,
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .milliseconds(400),
        maxIterations: 1_000,
        thresholds: BenchmarkLimits.thresholds)
    registerTokenBenchmarks()
    registerSigV4Benchmarks()
    registerS3Benchmarks()
    registerJSONBenchmarks()
    registerAppStoreBenchmarks()
    registerFunctionBenchmarks()
}

/// What is measured, and how far a run may drift from the checked-in p90 before the check fails.
enum BenchmarkLimits {
    /// Instructions only where perf can count them: asking for them anyway adds the harness's own
    /// 16 allocations to every iteration's malloc count, which the thresholds hold exactly.
    static var metrics: [BenchmarkMetric] {
        [.mallocCountTotal, .wallClock] + (hardwareCounters ? [.instructions] : [])
    }

    /// Whether the kernel exposes the CPU's performance counters (a core PMU), as perf_events needs.
    static var hardwareCounters: Bool {
        ["cpu", "cpu_core", "cpu_atom", "armv8_pmuv3", "armv8_pmuv3_0"].contains {
            access("/sys/bus/event_source/devices/\($0)", F_OK) == 0
        }
    }

    static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
        // Allocation counts are exact for the same code; 2 % absorbs libcurl's choice of connection
        // for overlapped requests in the whole sign-in, and is less than one allocation elsewhere.
        var limits: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: 2.0])]
        // Instruction counts move a little with the data (random ids, dates) and the library versions.
        if hardwareCounters { limits[.instructions] = .init(relative: [.p90: 5.0]) }
        return limits
    }
}
