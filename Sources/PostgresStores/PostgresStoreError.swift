// The PostgresStores module: what every server of the product that keeps its state in PostgreSQL
// shares (the sync server's and the patch server's stores): the `--db` URL (`PostgresAddress`),
// libpq's sslmode (`PostgresTLS`), a pool opened on a migrated schema (`PostgresPool`) and its
// transactions. It knows no server's tables or rules, and nothing of HTTP.

/// Why a PostgreSQL store could not be had: a `--db` URL that says something wrong, or a database
/// that could not be reached, refused the user or failed to migrate. Each server turns it into its
/// own error, keeping the message.
public struct PostgresStoreError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The URL or one of its parameters (its message names the field and what was expected).
        case badAddress
        /// The database: unreachable, TLS refused, the schema not migrated.
        case unavailable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
