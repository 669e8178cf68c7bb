import Bridge
import Foundation
import JSON
import Persistence
import Storage
import Sync
import SyncClient

/// One device: its own data folder, the storage and sync services as the bridge calls them, and
/// the tasks database that the sync tests use (two-way `tasks`, one-way `messages`).
final class SyncDevice: Sendable {
    let name: String
    let dataDirectory: String
    let app: AppContext
    private let registry = DataCenterRegistry(journal: SyncDatabaseJournal.self)
    /// The device's services, as one app run has them: they share its databases, and sync's runs
    /// and watch board live in its one sync service.
    private let storageService: StorageService
    private let syncService: SyncService

    static let schema: JSONValue = [
        "version": 1,
        "tables": [
            "tasks": ["columns": ["id": "TEXT NOT NULL", "title": "TEXT", "done": "BOOLEAN NOT NULL DEFAULT 0", "due": "INTEGER"],
                      "primaryKey": "id", "sync": ["mode": "twoWay"]],
            "notes": ["columns": ["id": "TEXT NOT NULL", "text": "TEXT"], "primaryKey": "id", "sync": ["mode": "twoWay", "conflict": "ask"]],
            "messages": ["columns": ["id": "TEXT NOT NULL", "body": "TEXT"], "primaryKey": "id", "sync": ["mode": "oneWay"]],
            // Scoped: each row is seen by the devices whose token grants its owner.
            "board": ["columns": ["id": "TEXT NOT NULL", "title": "TEXT", "owner": "TEXT NOT NULL"], "primaryKey": "id",
                      "sync": ["mode": "twoWay", "scope": "owner"]],
        ],
    ]

    init(_ name: String, dataDirectory: String? = nil) throws {
        self.name = name
        self.dataDirectory = dataDirectory ?? (NSTemporaryDirectory() + "sync-tests-\(name)-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: self.dataDirectory, withIntermediateDirectories: true)
        let grants = try Grants.parse(["storage", "sync", "network:127.0.0.1"], knownTargets: ["storage", "sync", "network"], source: "test")
        app = AppContext(name: "sync-tests-\(name)", version: "1.0.0", dataDirectory: self.dataDirectory, grants: grants)
        storageService = StorageService(registry: registry)
        syncService = SyncService(registry: registry)
    }

    /// Opens the database and connects it to `server`, with `token` when the server has auth.
    func start(server: String, token: String? = nil) async throws {
        _ = try await storage("open", ["database": "tasks", "schema": Self.schema])
        var params: JSONObject = ["database": "tasks", "server": .string(server), "deviceName": .string(name)]
        if let token { params["token"] = .string(token) }
        _ = try await sync("connect", params)
    }

    func storage(_ action: String, _ params: JSONObject) async throws -> JSONValue {
        var params = params
        if params["database"] == nil { params["database"] = "tasks" }
        return try await Self.call(storageService, action, .object(params), app: app)
    }

    func sync(_ action: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        var params = params
        if params["database"] == nil { params["database"] = "tasks" }
        return try await Self.call(syncService, action, .object(params), app: app)
    }

    @discardableResult
    func run() async throws -> JSONValue { try await sync("run") }

    func insert(_ table: String, _ records: [JSONValue]) async throws {
        _ = try await storage("insert", ["table": .string(table), "records": .array(records)])
    }

    func update(_ table: String, where filter: JSONValue, set: JSONValue) async throws {
        _ = try await storage("update", ["table": .string(table), "where": filter, "set": set])
    }

    func delete(_ table: String, where filter: JSONValue) async throws {
        _ = try await storage("delete", ["table": .string(table), "where": filter])
    }

    /// The table's rows as the app sees them, by id.
    func rows(_ table: String) async throws -> [String: JSONObject] {
        let found = try await storage("find", ["table": .string(table), "orderBy": "id"])
        var rows: [String: JSONObject] = [:]
        for record in found["records"]?.arrayValue ?? [] {
            guard let object = record.objectValue, let id = object["id"]?.stringValue else { continue }
            rows[id] = object
        }
        return rows
    }

    var replica: SyncReplica {
        get throws { try SyncReplica(center: registry.dataCenter(directory: dataDirectory, name: "tasks", create: false)) }
    }

    var center: DataCenter {
        get throws { try registry.dataCenter(directory: dataDirectory, name: "tasks", create: false) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: dataDirectory) }

    static func call(_ service: some BridgeService, _ action: String, _ params: JSONValue, app: AppContext) async throws -> JSONValue {
        let call = ServiceCall(target: service.target, action: action, params: params, app: app)
        return try await service.actions[action]!.perform(call)
    }
}
