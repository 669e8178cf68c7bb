import Bridge
import Glibc
import GRDB
import HostTesting
import HybridHost
import JSON
import Testing

/// Storage when the files fail otherwise than by filling up: I/O errors (through `FaultingVFS`,
/// as a disk returning EIO) and files that are read-only (the immutable flag, which stops root
/// too). Written through the services as the bridge calls them: a database with a plain and a
/// synced table (the sync journal writes in the same transaction), and kv.
@Suite("storage on a failing disk", .serialized)
struct StorageFaultTests {
    static let schema: JSONValue = ["version": 1, "tables": [
        "tasks": ["columns": ["id": "TEXT NOT NULL", "body": "TEXT"], "primaryKey": "id"],
        "notes": ["columns": ["id": "TEXT NOT NULL", "body": "TEXT"], "primaryKey": "id", "sync": ["mode": "twoWay"]],
    ]]

    /// One app run's services over `folder`: a fresh registry holds its own connections.
    struct Run {
        let registry = HostServices.registry()
        let app: AppContext

        init(_ folder: String) {
            app = AppContext(name: "faults", version: "1.0.0", dataDirectory: folder, grants: .all)
        }

        @discardableResult
        func call(_ target: String, _ action: String, _ params: JSONValue) async throws -> JSONValue {
            let handler = try #require(registry[target]?.actions[action])
            return try await handler.perform(ServiceCall(target: target, action: action, params: params, app: app))
        }

        /// The bridge error `call` fails with; nil when it succeeds.
        func failure(_ target: String, _ action: String, _ params: JSONValue) async throws -> BridgeError? {
            do {
                try await call(target, action, params)
                return nil
            } catch let error as BridgeError {
                return error
            }
        }

        func insert(_ table: String, _ id: String) async throws {
            try await call("storage", "insert", ["database": "tasks", "table": .string(table), "records": [["id": .string(id), "body": "text"]]])
        }

        func ids(_ table: String) async throws -> [String] {
            let found = try await call("storage", "find", ["database": "tasks", "table": .string(table)])
            return (found["records"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        }

        func kv(_ key: String) async throws -> JSONValue? {
            try await call("kv", "get", ["bucket": "prefs", "key": .string(key)])["value"]
        }

        func pending() async throws -> JSONValue? {
            try await call("sync", "status", ["database": "tasks"])["pending"]
        }

        /// Opens the database and writes what the tests then expect to keep: ten plain rows, one
        /// synced row (journaled for sync), one kv item.
        func seed() async throws {
            try await call("storage", "open", ["database": "tasks", "schema": StorageFaultTests.schema])
            for n in 0..<10 { try await insert("tasks", "t\(n)") }
            try await insert("notes", "n0")
            try await call("kv", "set", ["bucket": "prefs", "key": "first", "value": "before"])
        }

        /// After the fault: the same writes succeed, and everything acknowledged is there, the
        /// sync journal holding the synced writes that landed and not the one that failed.
        func expectWritable() async throws {
            try await insert("tasks", "t-after")
            try await insert("notes", "n-after")
            try await call("kv", "set", ["bucket": "prefs", "key": "second", "value": "after"])
            #expect(try await ids("tasks") == ((0..<10).map { "t\($0)" } + ["t-after"]).sorted())
            #expect(try await ids("notes") == ["n-after", "n0"])
            #expect(try await kv("first") == "before")
            #expect(try await kv("second") == "after")
            #expect(try await pending() == 2)
        }
    }

    func expectIntact(_ folder: String) throws {
        for file in ["tasks.sqlite", ".kv.sqlite"] {
            let database = try DatabaseQueue(path: folder + "/" + file)
            #expect(try database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"], "\(file)")
        }
    }

    @Test("writes to a disk failing with I/O errors are E_FAILED io; reads go on; once it recovers, the same writes succeed, every acknowledged one is there, the files intact")
    func ioErrors() async throws {
        FaultingVFS.install()
        let folder = TemporaryFolder(prefix: "io-faults")
        defer { FaultingVFS.clear(); folder.remove() }
        let run = Run(folder.path)
        try await run.seed()

        FaultingVFS.failWrites(under: folder.path)
        for (table, id) in [("tasks", "t-fault"), ("notes", "n-fault")] {
            let error = try await run.failure("storage", "insert", ["database": "tasks", "table": .string(table), "records": [["id": .string(id)]]])
            #expect(error?.code == .failed && error?.details?["reason"] == "io", "\(table): \(String(describing: error))")
        }
        let kvError = try await run.failure("kv", "set", ["bucket": "prefs", "key": "second", "value": "during"])
        #expect(kvError?.code == .failed && kvError?.details?["reason"] == "io", "\(String(describing: kvError))")
        // Reads go on and see what was acknowledged, nothing of what failed.
        #expect(try await run.ids("tasks") == (0..<10).map { "t\($0)" }.sorted())
        #expect(try await run.ids("notes") == ["n0"])
        #expect(try await run.kv("first") == "before")
        #expect(try await run.kv("second") == nil)

        FaultingVFS.clear()
        try await run.expectWritable()
        try expectIntact(folder.path)
    }

    @Test("a database and kv whose files are read-only are opened for reading: each write is E_FAILED read_only, reads go on; once writable, the same run writes again, nothing was lost, the files intact")
    func readOnlyFiles() async throws {
        let folder = TemporaryFolder(prefix: "read-only")
        let files = ["tasks.sqlite", ".kv.sqlite"].map { folder.path + "/" + $0 }
        defer {
            for file in files { try? Self.setImmutable(file, false) }
            folder.remove()
        }
        try await Run(folder.path).seed()
        // The run above let go of its files; now nobody may open them for writing, root included.
        // (A file made read-only while open stays writable through its open descriptor; a mount
        // that turns read-only under it fails writes with EROFS, which SQLite reports as an I/O
        // error: the test above.)
        for file in files { try Self.setImmutable(file, true) }
        let run = Run(folder.path)
        try await run.call("storage", "open", ["database": "tasks", "schema": Self.schema])
        for (table, id) in [("tasks", "t-fault"), ("notes", "n-fault")] {
            let error = try await run.failure("storage", "insert", ["database": "tasks", "table": .string(table), "records": [["id": .string(id)]]])
            #expect(error?.code == .failed && error?.details?["reason"] == "read_only", "\(table): \(String(describing: error))")
        }
        let kvError = try await run.failure("kv", "set", ["bucket": "prefs", "key": "second", "value": "during"])
        #expect(kvError?.code == .failed && kvError?.details?["reason"] == "read_only", "\(String(describing: kvError))")
        #expect(try await run.ids("tasks") == (0..<10).map { "t\($0)" }.sorted())
        #expect(try await run.ids("notes") == ["n0"])
        #expect(try await run.kv("first") == "before")
        // The app goes on: another database of the same folder is written and read.
        try await run.call("storage", "open", ["database": "other", "schema": Self.schema])
        try await run.call("storage", "insert", ["database": "other", "table": "tasks", "records": [["id": "o1"]]])
        #expect(try await run.call("storage", "count", ["database": "other", "table": "tasks"])["count"] == 1)

        // Writable again: the next call opens the files for writing, with no open of its own.
        for file in files { try Self.setImmutable(file, false) }
        try await run.expectWritable()
        try expectIntact(folder.path)
    }

    struct FlagError: Error, CustomStringConvertible {
        let description: String
    }

    /// Sets or clears the file's immutable flag (`chattr +i`): no process may open it for
    /// writing, root included. Needs root (CAP_LINUX_IMMUTABLE), as the disk tests do.
    static func setImmutable(_ path: String, _ on: Bool) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FlagError(description: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var flags: Int32 = 0
        let getFlags: UInt = 0x8008_6601, setFlags: UInt = 0x4008_6602, immutable: Int32 = 0x10
        guard ioctl(fd, getFlags, &flags) == 0 else { throw FlagError(description: "\(path): FS_IOC_GETFLAGS: \(String(cString: strerror(errno)))") }
        flags = on ? flags | immutable : flags & ~immutable
        guard ioctl(fd, setFlags, &flags) == 0 else {
            throw FlagError(description: "\(path): FS_IOC_SETFLAGS: \(String(cString: strerror(errno))); the read-only test needs root")
        }
    }
}
