import ArgumentParser
import PostgresStores

/// `--db` of `hybrid sync-server` and `hybrid patch-server`: a SQLite file for one server, or a
/// `postgres://` URL of a database that several share.
enum DatabaseArgument {
    /// Refuses an empty `--db`, or a `postgres://` URL that says something wrong, naming the field.
    static func validate(_ database: String) throws {
        guard !database.isEmpty else { throw ValidationError("--db: expected a file path or postgres://USER@HOST:PORT/DATABASE") }
        guard PostgresAddress.isURL(database) else { return }
        do {
            _ = try PostgresAddress(url: database)
        } catch let error as PostgresStoreError {
            throw ValidationError("--db: \(error.message)")
        }
    }

    /// The failure of a server whose store at `database` did not open. A PostgreSQL store's
    /// message (`message(error)`) already says which database, without its password, and why.
    static func failure(_ database: String, _ error: any Error, message: (any Error) -> String?) -> CLIFailure {
        let text = PostgresAddress.isURL(database) ? message(error) ?? "\(error)" : "cannot open \(database): \(error)"
        return CLIFailure(message: "--db: \(text)", code: 1)
    }
}
