import Bridge
import Engine
import HostTesting
import HybridHost
import JSON
import SystemIO
import Testing

/// Two apps in one process, each with the registry a run makes, a database and a kv bucket of the
/// same names, in data folders of their own: nothing one does reaches the other.
@Suite("two apps in one process share nothing")
struct AppIsolationTests {
    /// One app's run: its services, as `HostServices.registry()` makes them for a session.
    struct Run {
        let registry = HostServices.registry()
        let folder: TemporaryFolder
        let app: AppContext

        init(_ name: String) {
            folder = TemporaryFolder(prefix: "isolation-\(name)")
            app = AppContext(name: name, version: "1.0.0", dataDirectory: folder.path, grants: .all)
        }

        func call(_ target: String, _ action: String, _ params: JSONValue = [:]) async throws -> JSONValue {
            let service = try #require(registry[target])
            let handler = try #require(service.actions[action])
            return try await handler.perform(ServiceCall(target: target, action: action, params: params, app: app))
        }

        func openTasks() async throws {
            let schema: JSONValue = ["version": 1, "tables": ["tasks": ["columns": ["id": "INTEGER", "title": "TEXT"], "primaryKey": "id"]]]
            _ = try await call("storage", "open", ["database": "tasks", "schema": schema])
        }

        func titles() async throws -> [String] {
            let found = try await call("storage", "find", ["database": "tasks", "table": "tasks"])
            return found["records"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        }

        func owner() async throws -> JSONValue? {
            try await call("kv", "get", ["bucket": "prefs", "key": "owner"])["value"]
        }
    }

    @Test("writes, kv caches, watch events, commit counters, progress and patch loaders stay with their app")
    func isolation() async throws {
        let a = Run("a"), b = Run("b")
        defer { a.folder.remove(); b.folder.remove() }

        try await a.openTasks()
        try await b.openTasks()
        let watchedBefore = try await a.call("storage", "watch", ["database": "tasks", "timeoutMs": 1])
        let since = watchedBefore["seq"] ?? 0

        _ = try await a.call("storage", "insert", ["database": "tasks", "table": "tasks", "records": [["title": "from a"]]])
        _ = try await b.call("storage", "insert", ["database": "tasks", "table": "tasks", "records": [["title": "from b"]]])
        #expect(try await a.titles() == ["from a"])
        #expect(try await b.titles() == ["from b"])

        // kv: a reads its item into its cache, then b writes the same bucket and key.
        _ = try await a.call("kv", "set", ["bucket": "prefs", "key": "owner", "value": "a"])
        #expect(try await a.owner() == "a")
        let countersA = try #require(a.registry["kv"]).sharedCounters(for: a.app)["commits"]
        let countersB = try #require(b.registry["kv"]).sharedCounters(for: b.app)["commits"]
        let aCommits = countersA?.value
        _ = try await b.call("kv", "set", ["bucket": "prefs", "key": "owner", "value": "b"])
        #expect(try await a.owner() == "a")
        #expect(try await b.owner() == "b")
        #expect(countersA?.value == aCommits, "b's commit moved a's counter")
        #expect(countersA !== countersB)

        // watch: a sees its own insert only.
        let events = try await a.call("storage", "watch", ["database": "tasks", "since": since, "timeoutMs": 1])["events"]?.arrayValue ?? []
        #expect(events.count == 1)
        #expect(events.first?["record"]?["title"] == "from a")

        // Progress boards: a download id known to one run is unknown to the other.
        let progressA = try await a.call("network", "progress", ["requestId": "clip", "timeoutMs": 1])
        let progressB = try await b.call("network", "progress", ["requestId": "clip", "timeoutMs": 1])
        #expect(progressA == progressB, "neither run has started a download")

        // Patch loaders: each run finds only its own (none was made for these runs).
        await #expect(throws: BridgeError.self) { try await a.call("patch", "current") }
    }

    @Test("two sessions of the same app name in different data folders each find their own patch loader")
    func patchLoaders() async throws {
        let folder = TemporaryFolder(prefix: "isolation-app")
        defer { folder.remove() }
        let script = folder.path + "/main.js"
        try FileSystem.write("console.log('ready');\n", to: script)
        let one = try AppSession(path: script, options: AppRunOptions(dataDirectory: folder.path + "/one", grantFlags: ["all"]))
        let two = try AppSession(path: script, options: AppRunOptions(dataDirectory: folder.path + "/two", grantFlags: ["all"]))
        defer { one.shutdown(); two.shutdown() }
        #expect(one.patches !== two.patches)
        #expect(one.app.dataDirectory != two.app.dataDirectory)
    }
}
