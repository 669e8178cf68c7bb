import Foundation
import Logging
import PostgresNIO

/// A fresh, empty PostgreSQL database for one test, in the cluster that `HYBRID_TEST_POSTGRES_URL`
/// names (`scripts/with-postgres` starts one and sets it; `make test` runs the tests under it), so
/// that tests stay independent and may run in parallel.
///
/// Without the variable, ``create()`` throws, and the test fails saying how to run it: a
/// PostgreSQL variant never passes by being skipped.
///
/// ```swift
/// let database = try await PostgresTestDatabase.create()
/// defer { Task { await database.drop() } }
/// let server = try await SyncServer.open(configuration: SyncServerConfiguration(database: database.url))
/// ```
public struct PostgresTestDatabase: Sendable {
    public static let variable = "HYBRID_TEST_POSTGRES_URL"
    /// The PEM file of the CA that signed the cluster's certificate (for localhost and 127.0.0.1).
    public static let authorityVariable = "HYBRID_TEST_POSTGRES_CA"

    /// ``authorityVariable``'s file; throws, saying how to run the test, without it.
    public static func certificateAuthority() throws -> String {
        guard let path = ProcessInfo.processInfo.environment[authorityVariable], !path.isEmpty else {
            throw PostgresTestDatabaseError(message: """
                \(authorityVariable) is not set: the TLS tests need the CA of a cluster started with ssl=on. \
                Run them as `scripts/with-postgres swift test ...` (make test does).
                """)
        }
        return path
    }

    /// `postgres://USER@HOST:PORT/NAME` of the new database.
    public let url: String
    public let name: String
    let server: URLComponents

    /// Creates a database with a new name.
    public static func create() async throws -> PostgresTestDatabase {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else {
            throw PostgresTestDatabaseError(message: """
                \(variable) is not set: the PostgreSQL variants of the sync and patch server tests need a cluster. \
                Run them as `scripts/with-postgres swift test ...` (make test does), or set \(variable)=postgres://USER@HOST:PORT/DB \
                to a server where USER may create databases.
                """)
        }
        guard let server = URLComponents(string: text), server.host != nil, server.user != nil else {
            throw PostgresTestDatabaseError(message: "\(variable): expected postgres://USER@HOST:PORT/DB, got \(text)")
        }
        let name = "hybrid_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await execute("CREATE DATABASE \(name)", on: server)
        var database = server
        database.path = "/" + name
        return PostgresTestDatabase(url: database.string ?? text, name: name, server: server)
    }

    /// Drops the database, closing what is still connected to it; errors are ignored, since the
    /// throwaway cluster goes with everything in it.
    public func drop() async {
        try? await Self.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", on: server)
    }

    /// The rows `sql` returns from this database, each column as text (cast what is not, `::text`):
    /// what a test reads behind the server's back, such as the size of its log.
    public func rows(_ sql: String) async throws -> [[String?]] {
        var database = server
        database.path = "/" + name
        return try await Self.withConnection(to: database) { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect().map { row in
                try row.map { cell in try cell.decode(String?.self) }
            }
        }
    }

    /// Runs one statement on the database `server` names, over a connection of its own.
    public static func execute(_ sql: String, on server: URLComponents) async throws {
        try await withConnection(to: server) { connection, logger in
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
        }
    }

    static func withConnection<Result: Sendable>(to server: URLComponents,
                                                 _ body: (PostgresConnection, Logger) async throws -> Result) async throws -> Result {
        let logger = Logger(label: "hybrid.tests.postgres") { _ in SwiftLogNoOpLogHandler() }
        let configuration = PostgresConnection.Configuration(
            host: server.host ?? "127.0.0.1", port: server.port ?? 5432, username: server.user ?? "postgres",
            password: server.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"],
            database: String(server.path.drop(while: { $0 == "/" })), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        let result: Result
        do {
            result = try await body(connection, logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        return result
    }
}

/// Why a test database could not be had.
public struct PostgresTestDatabaseError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
