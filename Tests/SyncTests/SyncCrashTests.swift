import Foundation
import HostTesting
import JSON
import Testing

/// A client SIGKILLed mid-sync converges after restart: a `hybrid run` child writes and syncs in a
/// loop against a real server and is killed at a random moment, several times; a last run that
/// only syncs must leave the device equal to the server, with every write it acknowledged present.
@Suite("sync: a client killed mid-sync", .serialized)
struct SyncCrashTests {
    static var hybrid: String? { BuiltHybrid.path }

    static let client = """
        const [server, round, mode] = Hybrid.args;
        const db = { database: "tasks" };
        (async () => {
          await Hybrid.call("storage", "open", { ...db, schema: { version: 1, tables: {
            tasks: { columns: { id: "TEXT NOT NULL", round: "INTEGER", n: "INTEGER" }, primaryKey: "id", sync: { mode: "twoWay" } } } } });
          await Hybrid.call("sync", "connect", { ...db, server });
          if (mode === "settle") {
            for (let i = 0; i < 3; i++) await Hybrid.call("sync", "run", db);
            const rows = (await Hybrid.call("storage", "find", { ...db, table: "tasks", orderBy: "id" })).records;
            console.log("ROWS " + JSON.stringify(rows));
            return;
          }
          for (let n = 0; ; n++) {
            await Hybrid.call("storage", "insert", { ...db, table: "tasks", records: [{ id: `${round}-${n}`, round: Number(round), n }] });
            if (n % 2 === 1) await Hybrid.call("storage", "update", { ...db, table: "tasks", where: { id: `${round}-${n - 1}` }, set: { n: n * 10 } });
            console.log(`ack ${round}-${n}`);
            if (n % 5 === 4) await Hybrid.call("sync", "run", db);
          }
        })();
        """

    @Test("killed 8 times at random while writing and syncing, the device converges with the server after a restart",
          .enabled(if: hybrid != nil, "needs the hybrid binary beside the tests (swift build first)"))
    func killed() async throws {
        let server = try await LocalSyncServer.start()
        let folder = NSTemporaryDirectory() + "sync-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/client.js"
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        var acknowledged: Set<String> = []
        for round in 0..<8 {
            let output = try await Self.run(script, folder: folder, arguments: [server.base, String(round), "write"],
                                            killAfter: .milliseconds(Int.random(in: 0...600)))
            // Only whole lines count: a line cut by the kill was not fully acknowledged.
            let whole = output.hasSuffix("\n") ? output : String(output[..<(output.lastIndex(of: "\n") ?? output.startIndex)])
            for line in whole.split(separator: "\n") where line.hasPrefix("ack ") { acknowledged.insert(String(line.dropFirst(4))) }
        }
        let settled = try await Self.run(script, folder: folder, arguments: [server.base, "0", "settle"], killAfter: nil)
        guard let line = settled.split(separator: "\n").first(where: { $0.hasPrefix("ROWS ") }),
              let rows = try JSONParser.parse(String(line.dropFirst(5))).arrayValue else {
            Issue.record("the settling run printed no rows: \(settled)")
            await server.finish()
            return
        }
        var device: [String: JSONObject] = [:]
        for row in rows { if let object = row.objectValue, let id = object["id"]?.stringValue { device[id] = object } }
        let remote = try await server.liveRows("tasks")
        #expect(!acknowledged.isEmpty)
        #expect(acknowledged.isSubset(of: Set(device.keys)), "acknowledged writes missing: \(acknowledged.subtracting(device.keys).sorted())")
        #expect(device.count == remote.count)
        for (id, row) in device { #expect(remote[id] == row, "\(id): device \(row), server \(String(describing: remote[id]))") }
        await server.finish()
    }

    /// Runs the client; kills it with SIGKILL `killAfter` after its first acknowledged write (so a
    /// slow start on a loaded machine does not use up the time: every round writes something), or
    /// after a minute without one; with no `killAfter`, waits for it to end.
    static func run(_ script: String, folder: String, arguments: [String], killAfter: Duration?) async throws -> String {
        let process = try LiveProcess(hybrid!, ["run", script, "--data-dir", folder + "/data", "--grant", "storage,sync,network:127.0.0.1", "--"] + arguments)
        if let killAfter {
            _ = await process.wait(timeout: 60) { $0.standardOutput.contains("ack ") || $0.exitStatus != nil }
            try await Task.sleep(for: killAfter)
        } else {
            _ = await process.wait(timeout: 600) { $0.exitStatus != nil }
        }
        process.stop()
        return process.output.standardOutput
    }
}
