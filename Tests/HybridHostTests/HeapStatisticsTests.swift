import Foundation
import JSON
import Testing

/// `HYBRID_HEAP_STATS=FILE`: the engine's heap figures as JSON lines, what the soak reads to tell
/// JavaScriptCore's heap from malloc's.
@Suite("heap statistics log")
struct HeapStatisticsTests {
    @Test("hybrid run with HYBRID_HEAP_STATS appends a line of RSS, JavaScriptCore heap and malloc figures when it starts")
    func logsFigures() async throws {
        let (result, lines) = try await Self.run("const kept = Array.from({ length: 1000 }, (_, i) => ({ i })); console.log(kept.length);\n",
                                                 timeLimit: .seconds(120))
        #expect(result.status == 0 && result.standardOutput == "1000\n", "\(result)")
        #expect(lines.count >= 1)
        let first = lines.first ?? .null
        for key in ["t", "rss", "jsHeapSize", "jsHeapCapacity", "jsExtraMemory", "jsObjects", "mallocInUse", "mallocSystem"] {
            #expect(first[key]?.numberValue != nil, "\(key) in \(first)")
        }
        #expect((first["rss"]?.numberValue ?? 0) > 1, "\(first)")
        #expect((first["mallocSystem"]?.numberValue ?? 0) >= (first["mallocInUse"]?.numberValue ?? 0) - 0.1, "\(first)")
    }

    @Test("a heap of garbage no allocation collects is collected in full and given back within the trim's spacing (30 s) and a check")
    func trimGivesBack() async throws {
        // 3 million small objects, dropped; then the app idles for 45 s with nothing to allocate.
        let (result, lines) = try await Self.run("""
            let keep = [];
            for (let i = 0; i < 30; i++) { const a = []; for (let j = 0; j < 100000; j++) a.push({ j, s: "x" + j }); keep.push(a); }
            keep = null;
            let ticks = 0;
            const timer = setInterval(() => { if (++ticks === 45) clearInterval(timer); }, 1000);
            """, timeLimit: .seconds(600))
        #expect(result.status == 0, "\(result)")
        let capacities = lines.compactMap { $0["jsHeapCapacity"]?.numberValue }
        #expect((capacities.max() ?? 0) > 100, "the garbage filled the heap: \(capacities)")
        #expect((lines.last?["heapTrims"]?.numberValue ?? 0) >= 1, "\(lines)")
        #expect((capacities.last ?? .infinity) < 16, "the heap gave its blocks back: \(capacities)")
    }

    /// Runs `source` under `hybrid run` with HYBRID_HEAP_STATS set; what it did, and the log's lines.
    static func run(_ source: String, timeLimit: Duration) async throws -> (HybridProcess.Result, [JSONValue]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-heap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("script.js").path
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("heap.jsonl").path
        let result = try await HybridProcess.run(["run", script], timeLimit: timeLimit, environment: ["HYBRID_HEAP_STATS": log])
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (result, try text.split(separator: "\n").map { try JSONParser.parse(String($0)) })
    }
}
