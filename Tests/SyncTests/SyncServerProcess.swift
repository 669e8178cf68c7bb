import Foundation
import GRDB
import HostTesting
import JSON
import SyncAuth
import SyncServer

/// The reference server, in-process on an ephemeral port and a fresh database (a SQLite file, or
/// a PostgreSQL database of its own), for one test.
struct RunningSyncServer: Sendable {
    let server: SyncServer
    let port: Int
    /// The SQLite file, or the PostgreSQL database's URL.
    let path: String
    /// The PostgreSQL database, dropped by ``stop()``.
    let postgres: PostgresTestDatabase?

    var base: String { "http://127.0.0.1:\(port)" }

    /// With a `tokenVerifier`, a server with auth (every device needs a token); without, insecure.
    static func start(store: TestStore = .sqlite, holdSeconds: Double = 30, path: String? = nil,
                      tokenVerifier: TokenVerifier? = nil, rateLimit: RateLimit = .standard) async throws -> RunningSyncServer {
        let (location, postgres): (String, PostgresTestDatabase?) =
            if let path { (path, nil) } else { try await store.freshDatabase(prefix: "sync-client-tests") }
        do {
            var configuration = SyncServerConfiguration(databasePath: location, holdSeconds: holdSeconds, tokenVerifier: tokenVerifier)
            configuration.rateLimit = rateLimit
            let server = try await SyncServer.open(configuration: configuration)
            return RunningSyncServer(server: server, port: try await server.start(), path: location, postgres: postgres)
        } catch {
            await postgres?.drop()
            throw error
        }
    }

    /// Another server on the same database and configuration, beside this one: a second
    /// instance of one deployment. Stop it before this one, whose ``stop()`` deletes the database.
    func anotherInstance() async throws -> RunningSyncServer {
        var configuration = server.configuration
        configuration.port = 0
        let next = try await SyncServer.open(configuration: configuration)
        return RunningSyncServer(server: next, port: try await next.start(), path: path, postgres: nil)
    }

    func stop() async {
        await server.stop()
        if let postgres {
            await postgres.drop()
        } else {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    /// How many entries the server's op log holds now, read behind its back.
    func logSize() async throws -> Int {
        if let postgres {
            return Int(try await postgres.rows("SELECT COUNT(*)::text FROM sync_log").first?.first.flatMap { $0 } ?? "") ?? -1
        }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        return try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_log") ?? -1 }
    }

    /// The server's materialized rows of `table` that are live, by dataId.
    func liveRows(_ table: String) async throws -> [String: JSONObject] {
        let snapshot = try await server.store.snapshot()
        var rows: [String: JSONObject] = [:]
        for row in snapshot.tables[table] ?? [] where !row.deleted { rows[row.dataId] = row.data }
        return rows
    }
}
