import Foundation
import GRDB
import HostTesting
import JSON
import SyncProtocol
@testable import SyncServer
import Testing

/// A database written before table shapes were per user and op ids per device, opened by today's
/// server: every user keeps the shapes the server had, the log keeps its seqs, its cursor and what
/// each device logged.
@Suite("store migrations")
struct StoreMigrationTests {
    typealias Server = LocalSyncServer

    static let alice = TestUser("alice", scopes: ["user:alice", "team:t1"])
    static let bob = TestUser("bob", scopes: ["user:bob", "team:t1"])
    static let carol = TestUser("carol", scopes: ["user:carol"])

    /// What the old database holds, in both stores' column names: Alice's and Bob's devices,
    /// `projects` registered without a scope column and `board` with `owner`, three ops of Alice's
    /// device (seqs 8 to 10) left of a log compacted through 7, whose last seq given was 15 (as a
    /// log compacted whole leaves it, above every seq still there).
    static func fixture(_ store: TestStore) -> [String] {
        // Seen and logged now: a compaction at the server's start must leave the log alone.
        let now = Date().timeIntervalSince1970
        let ops = (8...10).map { seq in (seq, "op-\(seq)", "r\(seq)", "{\"n\":\(seq)}") }
        switch store {
        case .sqlite:
            return [
                """
                INSERT INTO sync_device (id, name, tokenDigest, createdAt, userId, scopes, cursor, lastSeenAt) VALUES
                    ('dev-alice', 'phone', 'digest-a', 1, 'alice', '["user:alice","team:t1"]', 7, \(now)),
                    ('dev-bob', 'phone', 'digest-b', 1, 'bob', '["user:bob","team:t1"]', 7, \(now))
                """,
                "INSERT INTO sync_table (tableName, scopeColumn) VALUES ('projects', NULL), ('board', 'owner')",
            ] + ops.flatMap { seq, opId, dataId, data in
                [
                    """
                    INSERT INTO sync_log (seq, opId, deviceId, packetId, tableName, dataId, type, data, timestamp, partition, loggedAt)
                    VALUES (\(seq), '\(opId)', 'dev-alice', 'p1', 'projects', '\(dataId)', 'insert', '\(data)', \(seq), 'alice', \(now))
                    """,
                    "INSERT INTO sync_log_key (key, seq) VALUES ('u:alice', \(seq))",
                    """
                    INSERT INTO sync_row (partition, tableName, dataId, data, deleted, timestamp, opId)
                    VALUES ('alice', 'projects', '\(dataId)', '\(data)', 0, \(seq), '\(opId)')
                    """,
                ]
            } + [
                "INSERT INTO sync_meta (key, value) VALUES ('compactedThrough', 7)",
                "UPDATE sqlite_sequence SET seq = 15 WHERE name = 'sync_log'",
            ]
        case .postgres:
            return [
                """
                INSERT INTO sync_device (id, name, token_digest, created_at, user_id, scopes, cursor, last_seen_at) VALUES
                    ('dev-alice', 'phone', 'digest-a', 1, 'alice', '["user:alice","team:t1"]', 7, \(now)),
                    ('dev-bob', 'phone', 'digest-b', 1, 'bob', '["user:bob","team:t1"]', 7, \(now))
                """,
                "INSERT INTO sync_table (table_name, scope_column) VALUES ('projects', NULL), ('board', 'owner')",
            ] + ops.flatMap { seq, opId, dataId, data in
                [
                    """
                    INSERT INTO sync_log (seq, op_id, device_id, packet_id, table_name, data_id, type, data, timestamp, partition, logged_at)
                    VALUES (\(seq), '\(opId)', 'dev-alice', 'p1', 'projects', '\(dataId)', 'insert', '\(data)', \(seq), 'alice', \(now))
                    """,
                    "INSERT INTO sync_log_key (key, seq) VALUES ('u:alice', \(seq))",
                    """
                    INSERT INTO sync_row (partition, table_name, data_id, data, deleted, timestamp, op_id)
                    VALUES ('alice', 'projects', '\(dataId)', '\(data)', false, \(seq), '\(opId)')
                    """,
                ]
            } + [
                "UPDATE sync_meta SET value = 7 WHERE key = 'compactedThrough'",
                "UPDATE sync_meta SET value = 15 WHERE key = 'lastSeq'",
            ]
        }
    }

    /// A database of `store` with the schema as it shipped before per-user tables (SQLite through
    /// migration "v4 log keys by seq", PostgreSQL through its second) and ``fixture(_:)`` in it.
    static func oldDatabase(_ store: TestStore) async throws -> (location: String, postgres: PostgresTestDatabase?) {
        let (location, postgres) = try await store.freshDatabase(prefix: "sync-server-migration")
        switch store {
        case .sqlite:
            let pool = try DatabasePool(path: location)
            try SQLiteSyncStore.migrator.migrate(pool, upTo: "v4 log keys by seq")
            try await pool.write { db in
                for statement in fixture(store) { try db.execute(sql: statement) }
            }
            try pool.close()
        case .postgres:
            guard let postgres else { throw TestFailure("no PostgreSQL database") }
            _ = try await postgres.rows("CREATE TABLE sync_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
            for (index, migration) in PostgresSyncStore.migrations.prefix(2).enumerated() {
                for statement in migration.statements { _ = try await postgres.rows(statement) }
                _ = try await postgres.rows("INSERT INTO sync_schema (version, name) VALUES (\(index + 1), '\(migration.name)')")
            }
            for statement in fixture(store) { _ = try await postgres.rows(statement) }
        }
        return (location, postgres)
    }

    static func device(_ id: String, _ user: TestUser) -> TestDevice { TestDevice(id: id, token: user.token) }

    @Test("an old database keeps its log's seqs and cursor, each device's logged op ids, and each user the table shapes it had; a new user is free",
          arguments: TestStore.allCases)
    func upgrade(store: TestStore) async throws {
        let (location, postgres) = try await Self.oldDatabase(store)
        do {
            let server = try await Server.start(store: store, database: location, tokenVerifier: TestUser.verifier)
            do {
                try await Self.check(server)
            } catch {
                await server.finish()
                throw error
            }
            await server.finish()
        } catch {
            await postgres?.drop()
            throw error
        }
        await postgres?.drop()
    }

    static func check(_ server: Server) async throws {
        let alices = device("dev-alice", alice)
        let bobs = device("dev-bob", bob)
        #expect(try await server.pull(alices, after: 0).status == 410)
        let pulled = try await server.pull(alices, after: 7)
        #expect(pulled.body["ops"]?.arrayValue?.map { [$0["seq"], $0["opId"]] } == [[8, "op-8"], [9, "op-9"], [10, "op-10"]], "\(pulled)")

        let repushed = try await server.push(alices, packetId: "a1", dependency: nil, ops: [
            Server.insert("op-9", table: "projects", "r9", ["n": 90], at: 90), Server.insert("op-11", table: "projects", "r11", ["n": 11], at: 11),
        ])
        #expect(repushed.body["applied"] == ["op-11"], "\(repushed)")
        #expect(repushed.body["duplicates"] == ["op-9"], "\(repushed)")
        #expect(repushed.body["cursor"] == 16, "the log's cursor survived: \(repushed)")

        let bobsPush = try await server.push(bobs, packetId: "b1", dependency: nil, ops: [Server.insert("op-10", table: "projects", "r10", ["n": 100], at: 100)])
        #expect(bobsPush.body["applied"] == ["op-10"], "another device's op id is not a duplicate: \(bobsPush)")
        #expect(bobsPush.body["cursor"] == 17, "\(bobsPush)")

        let bobsScoped = try await server.push(bobs, packetId: "b2", dependency: nil, ops: [
            Server.scoped(Server.insert("op-b2", table: "projects", "q1", ["owner": "team:t1"], at: 1)),
        ])
        #expect(bobsScoped.status == 400, "Bob keeps projects unscoped: \(bobsScoped)")
        let alicesUnscoped = try await server.push(alices, packetId: "a2", dependency: "a1", ops: [Server.insert("op-a2", table: "board", "b1", [:], at: 1)])
        #expect(alicesUnscoped.status == 400, "Alice keeps board scoped by owner: \(alicesUnscoped)")
        let alicesScoped = try await server.push(alices, packetId: "a3", dependency: "a1", ops: [
            Server.scoped(Server.insert("op-a3", table: "board", "b1", ["owner": "team:t1"], at: 1)),
        ])
        #expect(alicesScoped.body["applied"] == ["op-a3"], "\(alicesScoped)")

        let carols = try await server.register(carol)
        let carolsScoped = try await server.push(carols, packetId: "c1", dependency: nil, ops: [
            Server.scoped(Server.insert("op-c1", table: "projects", "q1", ["owner": "user:carol"], at: 1)),
        ])
        #expect(carolsScoped.body["applied"] == ["op-c1"], "a new user's first op fixes its own shape: \(carolsScoped)")
        #expect(try await server.rows(alices, table: "projects")["r9"]?["data"] == ["n": 9])
    }
}
