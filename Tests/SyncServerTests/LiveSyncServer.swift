import Foundation
import HostTesting
import Hummingbird
import HummingbirdTesting
import JSON
import SyncAuth
import SyncProtocol
import SyncServer

/// A real ``SyncServer`` on an ephemeral loopback port and a fresh database (a file in the
/// temporary directory, or a new PostgreSQL database), driven over real HTTP: what a device would see.
struct LiveSyncServer: SyncServerEndpoint {
    let server: SyncServer
    let port: Int
    /// The SQLite file, or the PostgreSQL database's URL.
    let databasePath: String
    /// The PostgreSQL database, dropped by ``finish()``.
    let postgres: PostgresTestDatabase?

    /// Starts a server; with no `databasePath`, on a new database of `store`. `configure` sets
    /// what the other parameters do not.
    static func start(store: TestStore = .sqlite, databasePath: String? = nil, holdSeconds: Double = 30,
                      maxBodyBytes: Int = 8 * 1024 * 1024, rateLimit: RateLimit = .standard,
                      tokenVerifier: TokenVerifier? = nil,
                      configure: (inout SyncServerConfiguration) -> Void = { _ in }) async throws -> LiveSyncServer {
        let (path, postgres): (String, PostgresTestDatabase?) =
            if let databasePath { (databasePath, nil) } else { try await store.freshDatabase(prefix: "sync-server-test") }
        var configuration = SyncServerConfiguration(databasePath: path, holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes,
                                                    tokenVerifier: tokenVerifier)
        configuration.rateLimit = rateLimit
        configure(&configuration)
        do {
            let server = try await SyncServer.open(configuration: configuration)
            let port = try await server.start()
            return LiveSyncServer(server: server, port: port, databasePath: path, postgres: postgres)
        } catch {
            await postgres?.drop()
            throw error
        }
    }

    /// Runs `body` against a new server, then stops it and deletes its database, whatever `body` did.
    static func with(store: TestStore = .sqlite, holdSeconds: Double = 30, maxBodyBytes: Int = 8 * 1024 * 1024,
                     rateLimit: RateLimit = .standard, tokenVerifier: TokenVerifier? = nil,
                     configure: (inout SyncServerConfiguration) -> Void = { _ in },
                     _ body: (LiveSyncServer) async throws -> Void) async throws {
        let server = try await start(store: store, holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes, rateLimit: rateLimit,
                                     tokenVerifier: tokenVerifier, configure: configure)
        do {
            try await body(server)
        } catch {
            await server.finish()
            throw error
        }
        await server.finish()
    }

    /// Another server on the same database and configuration, beside this one or after it: a
    /// restart, or a second instance of one deployment. ``finish()`` on either deletes the database.
    func anotherInstance() async throws -> LiveSyncServer {
        var configuration = server.configuration
        configuration.port = 0
        let next = try await SyncServer.open(configuration: configuration)
        return LiveSyncServer(server: next, port: try await next.start(), databasePath: databasePath, postgres: postgres)
    }

    /// Stops the server, keeping its database for a successor.
    func stop() async { await server.stop() }

    /// Stops the server and deletes its database.
    func finish() async {
        await server.stop()
        if let postgres {
            await postgres.drop()
        } else {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        }
    }

    // MARK: Bodies

    static func packet(_ deviceId: String, _ packetId: String, _ dependency: String?, _ ops: [SyncOperation]) -> JSONValue {
        ["deviceId": .string(deviceId), "packetId": .string(packetId), "dependencyIdentifier": dependency.map(JSONValue.string) ?? .null,
         "ops": .array(ops.map { .object($0.json) })]
    }

    static func insert(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .insert, data: data, timestamp: timestamp)
    }

    static func update(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .update, data: data, timestamp: timestamp)
    }

    static func delete(_ opId: String, table: String = "tasks", _ dataId: String, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .delete, data: nil, timestamp: timestamp)
    }

    static func batch(_ opId: String, table: String = "tasks", where filter: JSONObject, set: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: "*", table: table, type: .batch, data: ["where": .object(filter), "set": .object(set)],
                      timestamp: timestamp)
    }
}
