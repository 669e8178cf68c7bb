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
            "open": .worker(OpenParams.self) { call, params in try await open(call, params) },
            "insert": .worker(InsertParams.self) { call, params in
                try await write(call, params.database) { center, session in try insert(center, session, params.operation, path: "") }
            },
            "update": .worker(UpdateParams.self) { call, params in
                try await write(call, params.database) { center, session in try update(center, session, params.operation, path: "") }
            },
            "delete": .worker(DeleteParams.self) { call, params in
                try await write(call, params.database) { center, session in try delete(center, session, params.operation, path: "") }
            },
            "transaction": .worker(TransactionParams.self) { call, params in
                try await write(call, params.database) { center, session in try transaction(center, session, params.ops) }
            },
            "find": .worker(FindParams.self) { call, params in
                try await read(call, params.database) { center, db in try find(center, db, params.operation, path: "") }
            },
            "count": .worker(CountParams.self) { call, params in
                try await read(call, params.database) { center, db in try count(center, db, params.operation, path: "") }
            },
            "watch": .worker(WatchParams.self) { call, params in try await watch(call, params) },
        ]
    }

    /// The database, capped at the app's quota (`quotas.databaseBytes`).
    private func center(_ call: ServiceCall, _ name: String, create: Bool = false) throws(PersistenceError) -> DataCenter {
        let center = try registry.dataCenter(directory: call.app.dataDirectory, name: name, create: create)
        try center.limit(bytes: call.app.quotas.databaseBytes)
        return center
    }

    private func open(_ call: ServiceCall, _ params: OpenParams) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let schema = try DatabaseSchema.parse(.object(params.schema), path: "/schema", journal: registry.journal)
            let center = try self.center(call, params.database, create: true)
            let version = try await center.open(schema: schema)
            return ["database": .string(center.name), "version": .number(Double(version))]
        }
    }

    private func write(_ call: ServiceCall, _ database: String,
                       _ body: @escaping @Sendable (DataCenter, WriteSession) throws -> JSONValue) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let center = try self.center(call, database)
            return try await center.write { session in try body(center, session) }
        }
    }

    private func read(_ call: ServiceCall, _ database: String,
                      _ body: @escaping @Sendable (DataCenter, ReadSession) throws -> JSONValue) async throws(BridgeError) -> JSONValue {
        try await bridged { () async throws -> JSONValue in
            let center = try self.center(call, database)
            return try await center.read { db in try body(center, db) }
        }
    }

    // MARK: - Operations, shared by the single actions and `transaction`

    private func insert(_ center: DataCenter, _ session: WriteSession, _ op: InsertOperation, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op.table, path: path + "/table")
        let inserted = try table.insert(op.records, in: session, path: path + "/records")
        return ["inserted": .number(Double(inserted))]
    }

    private func update(_ center: DataCenter, _ session: WriteSession, _ op: UpdateOperation, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op.table, path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: .object(op.filter ?? [:]), path: path)
        let changed = try table.update(query, set: op.set, in: session, path: path + "/set")
        return ["changed": .number(Double(changed))]
    }

    private func delete(_ center: DataCenter, _ session: WriteSession, _ op: DeleteOperation, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op.table, path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: .object(op.filter ?? [:]), path: path)
        return ["deleted": .number(Double(try table.delete(query, in: session)))]
    }

    private func find(_ center: DataCenter, _ db: ReadSession, _ op: FindOperation, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op.table, path: path + "/table")
        let query = try op.query(on: table.schema, path: path)
        return ["records": .array(try table.find(query, in: db).map(JSONValue.object))]
    }

    private func count(_ center: DataCenter, _ db: ReadSession, _ op: CountOperation, path: String) throws(PersistenceError) -> JSONValue {
        let table = try center.table(op.table, path: path + "/table")
        let query = try QueryCommand(table: table.schema, where: op.filter.map(JSONValue.object), path: path)
        return ["count": .number(Double(try table.count(query, in: db)))]
    }

    private func transaction(_ center: DataCenter, _ session: WriteSession, _ ops: [TransactionOperation]) throws(PersistenceError) -> JSONValue {
        var results: [JSONValue] = []
        for (i, op) in ops.enumerated() {
            let path = "/ops/\(i)"
            switch op {
            case .insert(let op): results.append(try insert(center, session, op, path: path))
            case .update(let op): results.append(try update(center, session, op, path: path))
            case .delete(let op): results.append(try delete(center, session, op, path: path))
            case .find(let op): results.append(try find(center, session, op, path: path))
            case .count(let op): results.append(try count(center, session, op, path: path))
            }
        }
        return ["results": .array(results)]
    }

    // MARK: - Watch

    private func watch(_ call: ServiceCall, _ params: WatchParams) async throws(BridgeError) -> JSONValue {
        let (center, tables) = try bridged { () throws -> (DataCenter, Set<String>?) in
            let center = try self.center(call, params.database)
            guard let names = params.tables else { return (center, nil) }
            var tables: Set<String> = []
            for (i, name) in names.enumerated() {
                tables.insert(try center.table(name, path: "/tables/\(i)").name)
            }
            return (center, tables)
        }
        return await center.changes.watch(since: params.since, tables: tables, timeoutMs: params.timeoutMs).jsonValue
    }
}
