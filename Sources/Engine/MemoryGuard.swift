import SystemIO

/// Holds one run to a growth of the process's resident memory (`EngineOptions.memoryLimitBytes`).
///
/// JavaScriptCore has no heap cap, and the one heap figure its library exports,
/// `JSGetMemoryUsageStatistics`, walks the whole heap to count objects by type: 0.3 ms on an
/// empty heap, over 100 ms at a million objects. The process's resident memory is what the
/// kernel's OOM killer goes by, a runaway JS heap is what drives it, and it costs one read of
/// `/proc/self/statm` (about 6 µs). So the guard reads that, never per call: every 100 ms between
/// tasks, and at the end of each garbage collection, which a script allocating in one long
/// synchronous run triggers as it grows (`JSEngine` then stops the run through the watchdog).
final class MemoryGuard {
    let limit: Int
    /// Resident bytes when the run started (the engine and its runtime loaded).
    let baseline: Int
    /// The growth measured when it first passed the limit.
    private(set) var exceeded: Int?

    /// nil when `/proc` cannot be read: then there is nothing to hold the run to.
    init?(limit: Int) {
        guard let baseline = ResidentMemory.bytes() else { return nil }
        self.limit = limit
        self.baseline = baseline
    }

    /// Measures; returns the growth once it has passed the limit, else nil.
    func check() -> Int? {
        if exceeded == nil, let resident = ResidentMemory.bytes(), resident - baseline > limit {
            exceeded = resident - baseline
        }
        return exceeded
    }

    /// The error a run over its limit ends with.
    func error(grown: Int) -> ScriptError {
        var error = ScriptError(name: "MemoryLimitError",
                                message: "the process's resident memory grew by \(Self.mebibytes(grown)) since the app started, past its limit of \(Self.mebibytes(limit)), and the script was stopped")
        error.isMemoryLimit = true
        return error
    }

    static func mebibytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value >= 10 ? "\(Int(value.rounded())) MiB" : "\((value * 10).rounded() / 10) MiB"
    }
}
