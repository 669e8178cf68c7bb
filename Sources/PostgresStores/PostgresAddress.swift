import Foundation
import PostgresNIO

/// Where a PostgreSQL store lives, as `--db` names it:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=FILE]` (or
/// `postgresql://`). A password absent from the URL comes from `PGPASSWORD`, so that it need not
/// appear in a process list; `sslmode` and `sslrootcert` absent from it come from `PGSSLMODE` and
/// `PGSSLROOTCERT`, as for libpq, and `sslmode` is libpq's `prefer` when neither says
/// (``PostgresTLS``). Any other parameter is refused by name rather than ignored.
///
/// ```swift
/// let address = try PostgresAddress(url: "postgres://sync@db.example.com:5432/sync?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem")
/// address.port       // 5432
/// address.tls.mode   // .verifyFull
/// ```
public struct PostgresAddress: Sendable, Equatable {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: PostgresTLS

    /// Whether `text` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// The URL's query parameters this type honours.
    static let parameters: Set<String> = ["sslmode", "sslrootcert"]

    public init(user: String, password: String?, host: String, port: Int, database: String,
                tls: PostgresTLS = PostgresTLS(mode: .prefer, rootCertificate: nil)) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
    }

    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isURL(url), let components = URLComponents(string: url) else {
            throw PostgresStoreError(.badAddress, "expected postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError(.badAddress, "expected a user in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError(.badAddress, "expected a host in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError(.badAddress, "expected a database name after the host in postgres://USER@HOST:PORT/DATABASE, got \(url)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.parameters.contains(item.name) else {
                throw PostgresStoreError(.badAddress, "\(item.name): not a parameter this server honours in a postgres:// URL; expected sslmode or sslrootcert")
            }
            guard query[item.name] == nil else { throw PostgresStoreError(.badAddress, "\(item.name): given twice in \(url)") }
            query[item.name] = item.value ?? ""
        }
        let tls = try PostgresTLS(mode: query["sslmode"] ?? environment["PGSSLMODE"] ?? PostgresTLS.Mode.prefer.rawValue,
                                  rootCertificate: query["sslrootcert"] ?? environment["PGSSLROOTCERT"])
        self.init(user: user, password: components.password ?? environment["PGPASSWORD"], host: host, port: components.port ?? 5432,
                  database: database, tls: tls)
    }

    /// A pool's configuration for this address; throws when the TLS settings cannot be met
    /// (a root certificate file missing or unreadable).
    public func clientConfiguration() throws -> PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: try tls.forClient())
    }

    /// A single connection's configuration for this address (a LISTEN, a migration).
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database,
                                         tls: try tls.forConnection())
    }

    /// The same server and user, another database: what a test or an operator's tool connects to
    /// in order to create or drop one.
    public func with(database: String) -> PostgresAddress {
        var address = self
        address.database = database
        return address
    }

    /// The URL without its password, for messages and logs; `sslmode` when it is not the default.
    public var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (tls.mode == .prefer ? "" : "?sslmode=\(tls.mode.rawValue)")
    }
}
