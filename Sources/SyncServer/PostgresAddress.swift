import Foundation
import SyncProtocol

/// Where a PostgreSQL store lives, as `--db` names it: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (or `postgresql://`). A password absent from the URL comes from `PGPASSWORD`, so that it need
/// not appear in a process list.
///
/// ```swift
/// let address = try PostgresAddress(url: "postgres://sync@127.0.0.1:5432/sync")
/// address.port   // 5432
/// ```
public struct PostgresAddress: Sendable, Equatable {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(user: String, password: String?, host: String, port: Int, database: String) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
    }

    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isURL(url), let components = URLComponents(string: url) else {
            throw SyncServerError(.badRequest, "expected postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw SyncServerError(.badRequest, "expected a user in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SyncServerError(.badRequest, "expected a host in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw SyncServerError(.badRequest, "expected a database name after the host in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        self.init(user: user, password: components.password ?? environment["PGPASSWORD"], host: host, port: components.port ?? 5432,
                  database: database)
    }

    /// The same server and user, another database: what a test or an operator's tool connects to
    /// in order to create or drop one.
    public func with(database: String) -> PostgresAddress {
        var address = self
        address.database = database
        return address
    }

    /// The URL without its password, for messages and logs.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
