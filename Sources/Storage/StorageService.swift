// The Storage module: the `storage` target (the generic DataCenter for JS) and the `kv` target (a
// key-value store), both over the Persistence module. It turns params into Persistence calls and
// Persistence errors into bridge errors; it never writes SQL from params (Persistence checks every
// name and binds every value) and never imports another service.
import Bridge
import JSON
import Persistence

/// The `storage` target (contract `services/storage.json`): open a database with a schema,
/// then insert, update, delete, find, count, run several of those atomically, and watch commits.
///
/// ```js
/// await Hybrid.call("storage", "open", { database: "tasks", schema });
/// await Hybrid.call("storage", "insert", { database: "tasks", table: "tasks", records: [{ title: "milk" }] });
/// const { records } = await Hybrid.call("storage", "find", { database: "tasks", table: "tasks", where: { done: false } });
/// ```
///
/// Every action runs on a worker: each touches the database file.
public struct StorageService: BridgeService {
    public let target = "storage"
    private let registry: DataCenterRegistry

    public init(registry: DataCenterRegistry = DataCenterRegistry()) {
        self.registry = registry
    }

    public var actions: [String: ServiceAction] {
        [
            "open": .worker { call in try await open(call) },
            "insert": .worker { call in try await write(call) { center, session, params in try insert(center, session, params, path: "") } },
            "update": .worker { call in try await write(call) { center, session, params in try update(center, session, params, path: "") } },
            "delete": .worker { call in try await write(call) { center, session, params in try delete(center, session, params, path: "") } },
            "transaction": .worker { call in try await write(call) { center, session, params in try transaction(center, session, params) } },
            "find": .worker { call in try await read(call) { center, db, params in try find(center, db, params, path: "") } },
            "count": .worker { call in try await read(call) { center, db, params in try count(center, db, params, path: "") } },
            "watch": .worker { call in try await watch(call) },
        ]
    }

    private func center(_ call: ServiceCall, create: Bool = false) throws(PersistenceError) -> DataCenter {
        let name = call.params["database"]?.stringValue ?? ""
        return try registry.dataCenter(directory: call.app.dataDirectory, name: name, create: create)
    }

    private func open(_ call: ServiceCall) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let schema = try DatabaseSchema.parse(call.params["schema"] ?? .null, path: "/schema", journal: registry.journal)
            let center = try self.center(call, create: true)
            let version = try await center.open(schema: schema)
            return ["database": .string(center.name), "version": .number(Double(version))]
        }
    }

    private func write(_ call: ServiceCall,
                       _ body: @escaping @Sendable (DataCenter, WriteSession, JSONValue) throws -> JSONValue) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let center = try self.center(call)
            let params = call.params
            return try await center.write { session in try body(center, session, params) }
        }
    }

    private func read(_ call: ServiceCall,
                      _ body: @escaping @Sendable (DataCenter, ReadSession, JSONValue) throws -> JSONValue) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let center = try self.center(call)
            let params = call.params
            return try await center.read { db in try body(center, db, params) }
        }
    }

    // MARK: - Operations, shared by the single actions and `transaction`

    private func insert(_ center: DataCenter, _ session: WriteSession, _ op: JSONValue, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op["table"]?.stringValue ?? "", path: path + "/table")
        guard let items = op["records"]?.arrayValue else { throw .invalid(path: path + "/records", message: "expected an array of records") }
        var records: [JSONObject] = []
        records.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let record = item.objectValue else { throw .invalid(path: path + "/records/\(i)", message: "expected a record object, got \(item.typeName)") }
            records.append(record)
        }
        let inserted = try table.insert(records, in: session, path: path + "/records")
        return ["inserted": .number(Double(inserted))]
    }

    private func update(_ center: DataCenter, _ session: WriteSession, _ op: JSONValue, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op["table"]?.stringValue ?? "", path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: op["where"] ?? .object([:]), path: path)
        guard let values = op["set"]?.objectValue else { throw .invalid(path: path + "/set", message: "expected an object of column values") }
        let changed = try table.update(query, set: values, in: session, path: path + "/set")
        return ["changed": .number(Double(changed))]
    }

    private func delete(_ center: DataCenter, _ session: WriteSession, _ op: JSONValue, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op["table"]?.stringValue ?? "", path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: op["where"] ?? .object([:]), path: path)
        return ["deleted": .number(Double(try table.delete(query, in: session)))]
    }

    private func find(_ center: DataCenter, _ db: ReadSession, _ op: JSONValue, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op["table"]?.stringValue ?? "", path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: op["where"], orderBy: op["orderBy"], limit: op["limit"],
                                     offset: op["offset"], columns: op["columns"], path: path)
        return ["records": .array(try table.find(query, in: db).map(JSONValue.object))]
    }

    private func count(_ center: DataCenter, _ db: ReadSession, _ op: JSONValue, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op["table"]?.stringValue ?? "", path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: op["where"], path: path)
        return ["count": .number(Double(try table.count(query, in: db)))]
    }

    private func transaction(_ center: DataCenter, _ session: WriteSession, _ params: JSONValue) throws(PersistenceError) -> JSONValue {
        let ops = params["ops"]?.arrayValue ?? []
        var results: [JSONValue] = []
        for (i, op) in ops.enumerated() {
            let path = "/ops/\(i)"
            switch op["action"]?.stringValue {
            case "insert": results.append(try insert(center, session, op, path: path))
            case "update": results.append(try update(center, session, op, path: path))
            case "delete": results.append(try delete(center, session, op, path: path))
            case "find": results.append(try find(center, session, op, path: path))
            case "count": results.append(try count(center, session, op, path: path))
            default: throw .invalid(path: path + "/action", message: "expected one of insert, update, delete, find, count")
            }
        }
        return ["results": .array(results)]
    }

    // MARK: - Watch

    public static let defaultWatchTimeoutMs = 30_000

    private func watch(_ call: ServiceCall) async throws(BridgeError) -> JSONValue {
        let (center, tables) = try bridged { () throws -> (DataCenter, Set<String>?) in
            let center = try self.center(call)
            guard let names = call.params["tables"]?.arrayValue else { return (center, nil) }
            var tables: Set<String> = []
            for (i, name) in names.enumerated() {
                tables.insert(try center.table(name.stringValue ?? "", path: "/tables/\(i)").name)
            }
            return (center, tables)
        }
        let since = call.params["since"]?.intValue.map(Int64.init)
        let timeoutMs = call.params["timeoutMs"]?.intValue ?? Self.defaultWatchTimeoutMs
        return await center.changes.watch(since: since, tables: tables, timeoutMs: timeoutMs).jsonValue
    }
}
