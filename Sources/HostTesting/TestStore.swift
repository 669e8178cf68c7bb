import Foundation

/// A server's stores (the sync server's, the patch server's), as a test's argument: every test
/// that starts a server runs once on each, so a suite shows `sqlite` and `postgres` side by side.
public enum TestStore: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    /// A fresh database per test in the cluster of `HYBRID_TEST_POSTGRES_URL` (``PostgresTestDatabase``);
    /// without it, the test fails.
    case postgres

    public var description: String { rawValue }

    /// A new, empty database of this store for one server: where its `--db` points (a SQLite file
    /// in the temporary directory named after `prefix`, or a PostgreSQL database's URL), and the
    /// PostgreSQL database to drop afterwards.
    public func freshDatabase(prefix: String) async throws -> (location: String, postgres: PostgresTestDatabase?) {
        switch self {
        case .sqlite:
            return (NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString).sqlite", nil)
        case .postgres:
            let database = try await PostgresTestDatabase.create()
            return (database.url, database)
        }
    }
}
