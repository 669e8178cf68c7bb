import CJavaScriptCore
import SystemIO

/// `HYBRID_HEAP_STATS=FILE`: every 10 s between tasks, one JSON line appended to FILE with where
/// the process's memory is: its resident size, JavaScriptCore's heap (`JSGetMemoryUsageStatistics`:
/// bytes in live cells, the heap's capacity, memory held outside the heap by its objects, objects)
/// and glibc's malloc (``MallocFigures``: in use, and taken from the system), and how many
/// times ``HeapTrim`` has collected the heap to give its blocks back. What the soak
/// (`scripts/soak`) reads to tell a growing JS heap from a growing native one.
///
/// ```
/// {"t":10.0,"rss":118.2,"jsHeapSize":22.1,"jsHeapCapacity":41.0,"jsExtraMemory":3.2,"jsObjects":180233,"mallocInUse":24.7,"mallocSystem":35.1,"heapTrims":0}
/// ```
///
/// The statistics walk the whole heap (0.3 ms empty, some 100 ms at a million objects), so they
/// are off unless asked for.
struct HeapStatisticsLog {
    static let variable = "HYBRID_HEAP_STATS"
    static let intervalMs = 10_000.0

    let path: String
    let started = MonotonicClock.now()

    /// The log `HYBRID_HEAP_STATS` names, nil when it is unset or empty.
    static func fromEnvironment() -> HeapStatisticsLog? {
        guard let path = ProcessEnvironment[variable], !path.isEmpty else { return nil }
        return HeapStatisticsLog(path: path)
    }

    /// Appends one line; on the JS thread, between tasks.
    func record(_ context: ScriptContext, trims: Int) {
        guard let statistics = JSGetMemoryUsageStatistics(context.ref) else { return }
        let figure = { (name: String) in context.numberValue(context.get(statistics, name)) }
        let malloc = MallocFigures.now()
        let megabytes = { (bytes: Double) in (bytes / 1_048_576 * 10).rounded() / 10 }
        let fields: [(String, Double)] = [
            ("t", (Double(MonotonicClock.now() - started) / 1e8).rounded() / 10),
            ("rss", megabytes(Double(ResidentMemory.bytes() ?? 0))),
            ("jsHeapSize", megabytes(figure("heapSize"))),
            ("jsHeapCapacity", megabytes(figure("heapCapacity"))),
            ("jsExtraMemory", megabytes(figure("extraMemorySize"))),
            ("jsObjects", figure("objectCount")),
            ("mallocInUse", megabytes(Double(malloc.inUse))),
            ("mallocSystem", megabytes(Double(malloc.fromSystem))),
            ("heapTrims", Double(trims)),
        ]
        let line = "{" + fields.map { "\"\($0.0)\":\($0.1 == $0.1.rounded() && abs($0.1) < 1e15 ? String(Int($0.1)) : String($0.1))" }
            .joined(separator: ",") + "}\n"
        try? FileSystem.append(line, to: path)
    }
}
