import Foundation
import HostTesting
import JSON
import Persistence
import Testing

/// Crash safety: a `hybrid run` child writes in a loop and prints each write once JS has its
/// acknowledgement; it is SIGKILLed at a random moment, 50 times. After each kill the file must pass
/// `PRAGMA integrity_check` and hold every acknowledged write.
@Suite("Crash safety", .serialized)
struct CrashSafetyTests {
    static var hybrid: String? { BuiltHybrid.path }

    static let writer = """
        const run = Number(Hybrid.args[0]);
        const db = { database: "crash" };
        (async () => {
          await Hybrid.call("storage", "open", { ...db, schema: { version: 1, tables: {
            rows: { columns: { id: "TEXT NOT NULL", run: "INTEGER NOT NULL", body: "TEXT" }, primaryKey: "id" } } } });
          for (let n = 0; ; n++) {
            if (n % 3 === 0) {
              const records = Array.from({ length: 20 }, (_, i) => ({ id: `${run}-${n}-${i}`, run, body: "x".repeat(100) }));
              await Hybrid.call("storage", "transaction", { ...db, ops: [{ action: "insert", table: "rows", records }] });
            } else {
              await Hybrid.call("storage", "insert", { ...db, table: "rows", records: [{ id: `${run}-${n}-0`, run, body: "y" }] });
            }
            console.log(`ack ${n}`);
          }
        })();
        """

    @Test("a writer killed 50 times at random leaves a sound file holding every acknowledged write",
          .enabled(if: hybrid != nil, "needs the hybrid binary beside the tests (swift build first)"))
    func killedWriter() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let script = directory.path + "/writer.js"
        try Self.writer.write(toFile: script, atomically: true, encoding: .utf8)
        let data = directory.path + "/data"
        var totalAcknowledged = 0
        for run in 0..<50 {
            // Its output is read on threads of LiveProcess's own, and the sleep holds none of
            // Swift's few cooperative threads, which the tests running beside this one need.
            let process = try LiveProcess(Self.hybrid!, ["run", script, "--data-dir", data, "--grant", "storage", "--", String(run)])
            try await Task.sleep(for: .milliseconds(Int.random(in: 80...500)))
            process.stop()
            let output = process.output.standardOutput
            // Only whole lines count: a line cut by the kill was not fully acknowledged.
            let acknowledged = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
            totalAcknowledged += acknowledged.count

            // A child killed before it created the file has nothing to check yet.
            if acknowledged.isEmpty && !FileManager.default.fileExists(atPath: data + "/crash.sqlite") { continue }
            let center = try DataCenterRegistry().dataCenter(directory: data, name: "crash", create: false)
            #expect(try center.integrityCheck() == "ok", "run \(run)")
            guard acknowledged.count > 0 else { continue }
            let table = try center.table("rows")
            let ids: [JSONValue] = acknowledged.flatMap { n in
                n % 3 == 0 ? (0..<20).map { JSONValue.string("\(run)-\(n)-\($0)") } : [.string("\(run)-\(n)-0")]
            }
            var present = 0
            for start in stride(from: 0, to: ids.count, by: 5_000) {
                let chunk = Array(ids[start..<min(start + 5_000, ids.count)])
                present += try center.readNow { session in
                    try table.count(QueryCommand(table: table.schema, where: ["id": ["in": .array(chunk)]]), in: session)
                }
            }
            #expect(present == ids.count, "run \(run): \(ids.count - present) acknowledged rows missing")
        }
        #expect(totalAcknowledged > 50, "the writer should have acknowledged writes before most kills")
    }
}
