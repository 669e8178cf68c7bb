import Foundation
import HostTesting
import Testing

/// `app.json` `quotas`, through `hybrid run` of a real app: a quota hit is a clear error the app
/// can handle, never a crash or a hang, and what was kept stays readable.
@Suite("app quotas")
struct QuotaTests {
    /// Writes an app folder with `quotas` and `main`, and runs it.
    func run(quotas: String, main: String) async throws -> HybridProcess.Result {
        let folder = TemporaryFolder(prefix: "quota-app")
        defer { folder.remove() }
        try #"{"name": "quota", "main": "main.js", "grants": ["storage", "kv"], "quotas": \#(quotas)}"#
            .write(toFile: folder.path + "/app.json", atomically: true, encoding: .utf8)
        try main.write(toFile: folder.path + "/main.js", atomically: true, encoding: .utf8)
        return try await HybridProcess.run(["run", folder.path], timeLimit: .seconds(60))
    }

    @Test("calls in flight past callsInFlight are E_TOO_MANY at once; databaseBytes and kvBytes stop growth with reason quota, keeping every row written")
    func quotasHit() async throws {
        let result = try await run(quotas: #"{"callsInFlight": 4, "databaseBytes": 131072, "kvBytes": 131072}"#, main: """
            (async () => {
              const db = { database: "q" };
              await Hybrid.call("storage", "open", { ...db, schema: { version: 1, tables: { t: { columns: { id: "INTEGER", body: "TEXT" }, primaryKey: "id" } } } });
              const outcomes = await Promise.all(Array.from({ length: 6 }, () =>
                Hybrid.call("storage", "watch", { ...db, timeoutMs: 300 }).then(() => "answered", (e) => e.code + " " + e.details.limit)));
              console.log(outcomes.join(", "));
              console.log("after:", (await Hybrid.call("storage", "watch", { ...db, timeoutMs: 1 })).events.length);

              const body = "x".repeat(1000);
              let rows = 0;
              try {
                for (;;) { await Hybrid.call("storage", "insert", { ...db, table: "t", records: Array.from({ length: 10 }, () => ({ body })) }); rows += 10; }
              } catch (e) {
                console.log("database:", e.code, e.details.reason, e.details.limitBytes, e.message);
              }
              const { count } = await Hybrid.call("storage", "count", { ...db, table: "t" });
              console.log("kept:", count === rows && rows > 50);
              await Hybrid.call("storage", "delete", { ...db, table: "t", where: { id: { lt: 40 } } });
              await Hybrid.call("storage", "insert", { ...db, table: "t", records: [{ body: "fits again" }] });
              console.log("after a delete:", (await Hybrid.call("storage", "count", { ...db, table: "t" })).count === rows - 39 + 1);

              let items = 0;
              try {
                for (;;) { await Hybrid.kv.set({ bucket: "b", key: "k" + items, value: body }); items++; }
              } catch (e) {
                console.log("kv:", e.code, e.details.reason);
              }
              console.log("kv kept:", items > 20 && (await Hybrid.kv.get({ bucket: "b", key: "k" + (items - 1) })).value === body);
            })();
            """)
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "answered, answered, answered, answered, E_TOO_MANY 4, E_TOO_MANY 4", "\(result)")
        #expect(lines.contains("after: 0"), "\(result)")
        #expect(lines.contains { $0.hasPrefix("database: E_FAILED quota 131072 database \"q\" is at its quota of 131072 bytes") }, "\(result)")
        #expect(lines.contains("kept: true"), "\(result)")
        #expect(lines.contains("after a delete: true"), "\(result)")
        #expect(lines.contains("kv: E_FAILED quota"), "\(result)")
        #expect(lines.contains("kv kept: true"), "\(result)")
    }

    @Test("a quotas field that is unknown or out of range stops the app at start, naming the field")
    func badQuotas() async throws {
        let low = try await run(quotas: #"{"callsInFlight": 0}"#, main: "")
        #expect(low.status == 1 && low.standardError.contains("app.json: quotas.callsInFlight: expected an integer of at least 1, got 0"), "\(low)")
        let unknown = try await run(quotas: #"{"cpu": 2}"#, main: "")
        #expect(unknown.status == 1 && unknown.standardError.contains("app.json: quotas.cpu: unknown quota; expected one of callsInFlight, databaseBytes, kvBytes"), "\(unknown)")
    }
}
