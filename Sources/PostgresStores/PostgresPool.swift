import Logging
import PostgresNIO
import SystemIO

/// A pool of connections to one PostgreSQL database whose schema has been created or migrated:
/// what a store opens first. Opening connects once on its own connection (so that an unreachable
/// database, a refused user or a TLS mismatch is said at once, in words an operator can act on),
/// migrates there, then starts the pool.
///
/// ```swift
/// let pool = try await PostgresPool.open(address, migrator: migrator)
/// let count = try await pool.transaction { connection in
///     try await connection.query("SELECT COUNT(*) FROM patch_app", logger: pool.logger).collect().first?.decode(Int.self)
/// }
/// await pool.close()
/// ```
public final class PostgresPool: Sendable {
    public let client: PostgresClient
    public let address: PostgresAddress
    public let logger: Logger
    private let running: Task<Void, Never>

    private init(address: PostgresAddress, configuration: PostgresClient.Configuration, maximumConnections: Int, logger: Logger) {
        var configuration = configuration
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.address = address
        self.logger = logger
        running = Task { await client.run() }
    }

    /// Connects to the database at `address` (which must exist), migrates its schema with
    /// `migrator`, and starts a pool of at most `maximumConnections` connections. Throws
    /// ``PostgresStoreError`` (`unavailable`) at once when the database cannot be reached or refuses
    /// the user, rather than waiting for it.
    public static func open(_ address: PostgresAddress, migrator: PostgresMigrator, maximumConnections: Int = 10,
                            logger: Logger) async throws -> PostgresPool {
        let connection: PostgresConnection
        let poolConfiguration: PostgresClient.Configuration
        do {
            poolConfiguration = try address.clientConfiguration()
            connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(), id: 0, logger: logger)
        } catch let error as PostgresStoreError {
            throw PostgresStoreError(.unavailable, "cannot connect to \(address.description): \(error.message)")
        } catch {
            throw PostgresStoreError(.unavailable, "cannot connect to \(address.description): \(address.tls.explain(error, host: address.host) ?? describe(error))")
        }
        do {
            try await migrator.migrate(on: connection, logger: logger)
        } catch {
            try? await connection.close()
            throw PostgresStoreError(.unavailable, "cannot migrate the schema of \(address.description): \(describe(error))")
        }
        try? await connection.close()
        return PostgresPool(address: address, configuration: poolConfiguration, maximumConnections: maximumConnections, logger: logger)
    }

    /// What went wrong, in PostgreSQL's words when the server said something: PSQLError's own
    /// description hides it.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        return error.underlying.map { "\($0)" } ?? "\(error.code)"
    }

    /// Runs `body` in one transaction on one pooled connection: committed when it returns, rolled
    /// back when it throws (its error, not the rollback's, is rethrown).
    public func transaction<Result: Sendable>(_ begin: String = "BEGIN",
                                              _ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in
            try await Self.transaction(on: connection, begin: begin, logger: self.logger, body)
        }
    }

    /// Runs `body` in one transaction on `connection`.
    public static func transaction<Result: Sendable>(on connection: PostgresConnection, begin: String = "BEGIN", logger: Logger,
                                                     _ body: @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        _ = try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger).collect()
        let result: Result
        do {
            result = try await body(connection)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger).collect()
            throw error
        }
        _ = try await connection.query("COMMIT", logger: logger).collect()
        return result
    }

    /// Closes the pool's connections. When a connection attempt is stuck (the database dropped
    /// under it, a server that never answers), the pool is left behind after `patience`, or at
    /// once when the caller is cancelled: a server's stop must not wait on it.
    public func close(patience: Duration = .seconds(10)) async {
        running.cancel()
        let running = running
        let closed = Closing()
        let timer = Task {
            try? await Task.sleep(for: patience)
            closed.finish()
        }
        Task {
            await running.value
            closed.finish()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in closed.wait(continuation) }
        } onCancel: {
            closed.finish()
        }
        timer.cancel()
    }

    /// A wait that the first of its finishers ends, whether it comes before the waiter or after.
    private final class Closing: Sendable {
        private let state = Locked<(waiter: CheckedContinuation<Void, Never>?, finished: Bool)>((nil, false))

        func wait(_ continuation: CheckedContinuation<Void, Never>) {
            state.withLock { state in
                if state.finished { continuation.resume() } else { state.waiter = continuation }
            }
        }

        func finish() {
            state.withLock { state in
                state.finished = true
                state.waiter?.resume()
                state.waiter = nil
            }
        }
    }
}
