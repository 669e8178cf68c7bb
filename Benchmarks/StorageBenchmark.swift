import Engine
import Foundation
import GRDBSQLite
import HostTesting
import HybridHost
import JSON
import Persistence
import SystemIO

/// `hybrid-bench storage`: the storage figures of issue 3, each beside a baseline measured in the
/// same run.
///
/// - Native `Table` insert of N rows × 10 columns in one transaction, and fetch of 2N rows, against
///   the same through the raw SQLite C API (prepare, bind, step; read columns into Swift values).
/// - From JS through the bridge: bulk insert (one call, one transaction), `kv.get` hits (in the JS
///   client's cache, and through the bridge in the native cache) and misses (256 in flight, which
///   the client batches per turn, and one at a time),
///   `kv.set` one per transaction, `kv.setMany`, and commit → `watch` latency; the baselines are
///   the native insert rate, `bridge.echo` (the bridge's floor) and an insert's own round trip.
public struct StorageBenchmark {
    let rows: Int

    public init(iterations: Int?) {
        rows = iterations ?? 100_000
    }

    /// Ten columns of mixed types, as a plain struct: a ``Record`` and a ``ReadableRecord``.
    struct Row: Record, ReadableRecord {
        var c0: Int, c1: String, c2: Double, c3: Int, c4: String, c5: Int, c6: String, c7: Double, c8: Int, c9: String

        func columns(for table: TableSchema) -> JSONObject {
            JSONObject([
                (key: "c0", value: .number(Double(c0))), (key: "c1", value: .string(c1)), (key: "c2", value: .number(c2)),
                (key: "c3", value: .number(Double(c3))), (key: "c4", value: .string(c4)), (key: "c5", value: .number(Double(c5))),
                (key: "c6", value: .string(c6)), (key: "c7", value: .number(c7)), (key: "c8", value: .number(Double(c8))),
                (key: "c9", value: .string(c9)),
            ])
        }

        func merge(_ other: Row, overriding: Bool) -> Row { overriding ? other : self }

        init(c0: Int, c1: String, c2: Double, c3: Int, c4: String, c5: Int, c6: String, c7: Double, c8: Int, c9: String) {
            (self.c0, self.c1, self.c2, self.c3, self.c4) = (c0, c1, c2, c3, c4)
            (self.c5, self.c6, self.c7, self.c8, self.c9) = (c5, c6, c7, c8, c9)
        }

        init(row: FetchedRow) throws(PersistenceError) {
            c0 = try row.int("c0"); c1 = try row.string("c1"); c2 = try row.double("c2"); c3 = try row.int("c3")
            c4 = try row.string("c4"); c5 = try row.int("c5"); c6 = try row.string("c6"); c7 = try row.double("c7")
            c8 = try row.int("c8"); c9 = try row.string("c9")
        }
    }

    static let columns = ["c0": "INTEGER", "c1": "TEXT", "c2": "REAL", "c3": "INTEGER", "c4": "TEXT",
                          "c5": "INTEGER", "c6": "TEXT", "c7": "REAL", "c8": "INTEGER", "c9": "TEXT"]
    static let order = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]

    static func makeRows(_ count: Int, offset: Int = 0) -> [Row] {
        (0..<count).map { k in
            let i = k + offset
            return Row(c0: i, c1: "title \(i)", c2: Double(i) * 0.5, c3: i % 7, c4: "note number \(i) with some text",
                       c5: i * 3, c6: "tag\(i % 100)", c7: Double(i) / 3, c8: i % 2, c9: "x")
        }
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = MonotonicClock.now()
        try body()
        return Double(MonotonicClock.now() - start) / 1e9
    }

    public func run() {
        let directory = TemporaryFolder(prefix: "hybrid-bench").path
        defer { FileSystem.removeTree(directory) }
        print("bench storage: \(rows) rows × 10 columns per insert, \(2 * rows) rows per fetch; best of 5 rounds native, 3 from JS")
        var nativeInsertRate = 0.0
        do {
            nativeInsertRate = try native(directory: directory)
        } catch {
            print("bench storage: native part failed: \(error)")
        }
        javaScript(nativeInsertRate: nativeInsertRate)
    }

    // MARK: - Native Table vs raw SQLite

    private func native(directory: String) throws -> Double {
        let data = Self.makeRows(rows)
        let more = Self.makeRows(rows, offset: rows)
        var ours: (insert: Double, fetch: Double, values: Double) = (.infinity, .infinity, .infinity)
        var raw: (insert: Double, fetch: Double) = (.infinity, .infinity)
        for round in 0..<5 {
            // Ours: Persistence's DataCenter (GRDB pool, WAL), Table.insert of Records, Table.find.
            let registry = DataCenterRegistry()
            let center = try registry.dataCenter(directory: directory, name: "ours\(round)", create: true)
            let schema = DatabaseSchema(version: 1, tables: [TableSchema(name: "t", columns: Self.order.map {
                try! ColumnDefinition.parse(name: $0, declaration: Self.columns[$0]!, path: "")
            })])
            let opened = Locked(false)
            Task { try await center.open(schema: schema); opened.value = true }
            while !opened.value { usleep(1000) }
            let table = try center.table("t")
            ours.insert = min(ours.insert, try Self.seconds {
                _ = try center.writeNow { session in try table.insert(data, in: session) }
            })
            _ = try center.writeNow { session in try table.insert(more, in: session) }
            var fetched = 0
            ours.fetch = min(ours.fetch, try Self.seconds {
                fetched = try center.readNow { session in try table.fetch(QueryCommand(table: table.schema), as: Row.self, in: session).count }
            })
            precondition(fetched == 2 * rows)
            ours.values = min(ours.values, try Self.seconds {
                fetched = try center.readNow { session in try table.find(QueryCommand(table: table.schema), in: session).count }
            })
            precondition(fetched == 2 * rows)

            // Raw: the C API, same pragmas, same rows, read back into the same struct.
            let rawTimes = try rawSQLite(path: directory + "/raw\(round).sqlite", data: data, more: more)
            raw.insert = min(raw.insert, rawTimes.insert)
            raw.fetch = min(raw.fetch, rawTimes.fetch)
        }
        print(BenchmarkTable.row("(a) raw SQLite insert", Double(rows) / raw.insert, unit: "rows/s"))
        print(BenchmarkTable.row("(b) Table.insert (Records)", Double(rows) / ours.insert, unit: "rows/s"))
        print("ratio insert time (b)/(a): \(BenchmarkTable.format(ours.insert / raw.insert))x   (goal <= 2x)")
        print(BenchmarkTable.row("(c) raw SQLite fetch", Double(2 * rows) / raw.fetch, unit: "rows/s"))
        print(BenchmarkTable.row("(d) Table.fetch (Records)", Double(2 * rows) / ours.fetch, unit: "rows/s"))
        print("ratio fetch time (d)/(c): \(BenchmarkTable.format(ours.fetch / raw.fetch))x   (goal <= 1.5x)")
        print(BenchmarkTable.row("    Table.find (JSON values, as JS gets them)", Double(2 * rows) / ours.values, unit: "rows/s")
              + "   (\(BenchmarkTable.format(ours.values / raw.fetch))x raw)")
        return Double(rows) / ours.insert
    }

    private func rawSQLite(path: String, data: [Row], more: [Row]) throws -> (insert: Double, fetch: Double) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw BenchError("cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError(String(cString: sqlite3_errmsg(db))) }
        }
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        try exec("CREATE TABLE t (" + Self.order.map { "\($0) \(Self.columns[$0]!)" }.joined(separator: ", ") + ")")
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        func insert(_ rows: [Row]) throws {
            try exec("BEGIN IMMEDIATE")
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "INSERT INTO t (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &statement, nil)
            func text(_ s: String, _ i: Int32) {
                var s = s
                _ = s.withUTF8 { sqlite3_bind_text(statement, i, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), Int32($0.count), transient) }
            }
            for row in rows {
                sqlite3_bind_int64(statement, 1, Int64(row.c0)); text(row.c1, 2); sqlite3_bind_double(statement, 3, row.c2)
                sqlite3_bind_int64(statement, 4, Int64(row.c3)); text(row.c4, 5); sqlite3_bind_int64(statement, 6, Int64(row.c5))
                text(row.c6, 7); sqlite3_bind_double(statement, 8, row.c7); sqlite3_bind_int64(statement, 9, Int64(row.c8)); text(row.c9, 10)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(db))) }
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
            try exec("COMMIT")
        }
        let insertTime = try Self.seconds { try insert(data) }
        try insert(more)
        var fetched: [Row] = []
        let fetchTime = Self.seconds {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM t", -1, &statement, nil)
            func text(_ i: Int32) -> String {
                String(decoding: UnsafeBufferPointer(start: sqlite3_column_text(statement, i), count: Int(sqlite3_column_bytes(statement, i))), as: UTF8.self)
            }
            while sqlite3_step(statement) == SQLITE_ROW {
                fetched.append(Row(c0: Int(sqlite3_column_int64(statement, 0)), c1: text(1), c2: sqlite3_column_double(statement, 2),
                                   c3: Int(sqlite3_column_int64(statement, 3)), c4: text(4), c5: Int(sqlite3_column_int64(statement, 5)),
                                   c6: text(6), c7: sqlite3_column_double(statement, 7), c8: Int(sqlite3_column_int64(statement, 8)), c9: text(9)))
            }
            sqlite3_finalize(statement)
        }
        precondition(fetched.count == data.count + more.count)
        return (insertTime, fetchTime)
    }

    // MARK: - From JS, through the bridge

    static let script = """
        const N = Number(Hybrid.args[0]);
        const now = () => __benchNow();
        async function lanes(count, inflight, body) {
          let next = 0;
          async function lane() { while (next < count) await body(next++); }
          const t0 = now();
          await Promise.all(Array.from({ length: inflight }, lane));
          return (now() - t0) / 1000;
        }
        (async () => {
          const db = { database: "bench" };
          await Hybrid.call("storage", "open", { ...db, schema: { version: 1, tables: { t: { columns: {
            c0: "INTEGER", c1: "TEXT", c2: "REAL", c3: "INTEGER", c4: "TEXT", c5: "INTEGER", c6: "TEXT", c7: "REAL", c8: "INTEGER", c9: "TEXT" } } } } });
          const rows = (offset) => Array.from({ length: N }, (_, k) => { const i = k + offset; return {
            c0: i, c1: "title " + i, c2: i * 0.5, c3: i % 7, c4: "note number " + i + " with some text", c5: i * 3,
            c6: "tag" + (i % 100), c7: i / 3, c8: i % 2, c9: "x" }; });
          const report = {};
          // Bulk insert: one call, one transaction, N ten-field objects (building them is not timed).
          let best = Infinity;
          for (let r = 0; r < 3; r++) {
            const records = rows(r * N);
            const t0 = now();
            const { inserted } = await Hybrid.call("storage", "insert", { ...db, table: "t", records });
            best = Math.min(best, (now() - t0) / 1000);
            if (inserted !== N) throw new Error("inserted " + inserted);
          }
          report.bulkInsert = N / best;

          // kv: setMany, then gets that miss (first read of each key), then gets that hit.
          const K = Math.min(N, 100000);
          const items = Array.from({ length: K }, (_, i) => ({ key: "k" + i, value: { i, title: "item " + i, tags: ["a", "b"] } }));
          best = Infinity;
          for (let r = 0; r < 3; r++) {
            const t0 = now();
            await Hybrid.call("kv", "setMany", { bucket: "b" + r, items });
            best = Math.min(best, (now() - t0) / 1000);
          }
          report.setMany = K / best;
          let missBest = Infinity, loneMissBest = Infinity, hitBest = Infinity, nativeHitBest = Infinity, echoBest = Infinity;
          // The last fifth of the keys is read one at a time, where a miss is never batched.
          const L = Math.floor(K / 5);
          for (let r = 0; r < 3; r++) {
            const bucket = "b" + r;
            // First reads: both caches miss, the item is read from SQLite (256 in flight: the
            // misses of a turn cross as one kv.getMany).
            missBest = Math.min(missBest, await lanes(K - L, 256, async (i) => {
              const e = await Hybrid.kv.get({ bucket, key: "k" + i });
              if (e.value.i !== i) throw new Error("wrong value");
            }));
            loneMissBest = Math.min(loneMissBest, await lanes(L, 1, async (j) => {
              const i = K - L + j;
              const e = await Hybrid.kv.get({ bucket, key: "k" + i });
              if (e.value.i !== i) throw new Error("wrong value");
            }));
            // Hybrid.kv.get hits the JS cache; Hybrid.call crosses the bridge to the native cache.
            hitBest = Math.min(hitBest, await lanes(K, 256, async (i) => {
              const e = await Hybrid.kv.get({ bucket, key: "k" + i });
              if (e.value.i !== i) throw new Error("wrong value");
            }));
            nativeHitBest = Math.min(nativeHitBest, await lanes(K, 256, async (i) => {
              const e = await Hybrid.call("kv", "get", { bucket, key: "k" + i });
              if (e.value.i !== i) throw new Error("wrong value");
            }));
            echoBest = Math.min(echoBest, await lanes(K, 256, async (i) => {
              const e = await Hybrid.call("bridge", "echo", { bucket, key: "k" + i });
              if (e.key !== "k" + i) throw new Error("wrong echo");
            }));
          }
          report.getMiss = (K - L) / missBest; report.loneMiss = L / loneMissBest; report.getHit = K / hitBest; report.nativeHit = K / nativeHitBest; report.echo = K / echoBest;
          const stats = Hybrid.kv.cacheStats();
          if (stats.hits < 3 * K) throw new Error("the JS cache missed hits: " + JSON.stringify(stats));

          // kv.set, one transaction each, 64 in flight.
          const S = Math.min(N, 20000);
          best = Infinity;
          for (let r = 0; r < 3; r++) {
            best = Math.min(best, await lanes(S, 64, (i) => Hybrid.call("kv", "set", { bucket: "s", key: "k" + i, value: { i, r } })));
          }
          report.set = S / best;

          // Commit -> watch: a watcher waits; an insert is issued; time until the watch resolves.
          const W = 1000, watchMs = [], insertMs = [];
          const { seq } = await Hybrid.call("storage", "watch", { ...db, timeoutMs: 0 });
          let since = seq;
          for (let i = 0; i < W; i++) {
            const watching = Hybrid.call("storage", "watch", { ...db, since });
            const t0 = now();
            const inserting = Hybrid.call("storage", "insert", { ...db, table: "t", records: [{ c0: i }] })
              .then(() => insertMs.push(now() - t0));
            const batch = await watching;
            watchMs.push(now() - t0);
            since = batch.seq;
            await inserting;
          }
          const p = (list, q) => { const s = list.slice().sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
          report.watchP50 = p(watchMs, 0.5); report.watchP99 = p(watchMs, 0.99);
          report.insertP50 = p(insertMs, 0.5); report.insertP99 = p(insertMs, 0.99);
          __benchReport(JSON.stringify(report));
        })();
        """

    private func javaScript(nativeInsertRate: Double) {
        guard let result = BenchmarkApp.run(script: Self.script, arguments: [String(rows)], prepare: { _ in }) else {
            print("bench storage: the JS part did not report")
            return
        }
        func value(_ key: String) -> Double { result[key]?.numberValue ?? .nan }
        print("from JS through the bridge (256 calls in flight for kv.get and echo, 64 for kv.set):")
        print(BenchmarkTable.row("(e) storage.insert, one call", value("bulkInsert"), unit: "rows/s") + "   (goal >= 150000)")
        if nativeInsertRate > 0 {
            print("    baseline (b) native Table.insert: \(BenchmarkTable.format(nativeInsertRate)) rows/s; ratio (b)/(e): \(BenchmarkTable.format(nativeInsertRate / value("bulkInsert")))x")
        }
        print(BenchmarkTable.row("(f) Hybrid.kv.get, cache hit (JS cache)", value("getHit"), unit: "ops/s") + "   (goal >= 500000)")
        print(BenchmarkTable.row("    Hybrid.call kv.get, hit (native cache)", value("nativeHit"), unit: "ops/s"))
        print(BenchmarkTable.row("(g) Hybrid.kv.get, cache miss", value("getMiss"), unit: "ops/s") + "   (goal >= 100000)")
        print(BenchmarkTable.row("    Hybrid.kv.get, cache miss, one at a time", value("loneMiss"), unit: "ops/s"))
        print(BenchmarkTable.row("    baseline: bridge.echo same params", value("echo"), unit: "ops/s"))
        print("    ratio hit/echo: \(BenchmarkTable.format(value("getHit") / value("echo")))x, native hit/echo: \(BenchmarkTable.format(value("nativeHit") / value("echo")))x, miss/echo: \(BenchmarkTable.format(value("getMiss") / value("echo")))x")
        print(BenchmarkTable.row("(h) kv.set, one per transaction", value("set"), unit: "ops/s") + "   (goal >= 30000)")
        print(BenchmarkTable.row("(i) kv.setMany", value("setMany"), unit: "items/s") + "   (goal >= 150000)")
        print(BenchmarkTable.row("(j) commit -> watch resolved, p50", value("watchP50"), unit: "ms"))
        print(BenchmarkTable.row("(j) commit -> watch resolved, p99", value("watchP99"), unit: "ms") + "   (goal <= 5)")
        print(BenchmarkTable.row("    baseline: insert round trip, p99", value("insertP99"), unit: "ms")
              + "   (p50 \(BenchmarkTable.format(value("insertP50"))) ms)")
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

