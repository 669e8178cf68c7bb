// The PatchServer module: `hybrid patch-server`, where publishers put signed patches and devices
// check for them. It knows no JavaScript: patches are signed files it verifies and serves
// (PatchProtocol), rolled out to a share of each channel's devices and halted when too many of
// them roll a patch back.
import HTTPServing
import Hummingbird
import Logging
import PostgresStores
import ServiceLifecycle

/// The patch server.
///
/// ```swift
/// let server = try PatchServer(configuration: PatchServerConfiguration(database: path))
/// let port = try await server.start()   // serving on http://127.0.0.1:port
/// await server.stop()
/// ```
public actor PatchServer {
    public nonisolated let configuration: PatchServerConfiguration
    public nonisolated let store: any PatchStore
    private let logger: Logger
    private let metrics = PatchMetrics()
    private var group: ServiceGroup?
    private var running: Task<Void, any Error>?

    /// Opens (or creates) the SQLite store at `configuration.database`; a `postgres://` URL there
    /// is ``open(configuration:)``'s.
    public init(configuration: PatchServerConfiguration) throws {
        guard !PostgresAddress.isURL(configuration.database) else {
            throw PatchServerError(500, "internal", "database: a postgres:// URL is opened by PatchServer.open(configuration:), not this SQLite initializer")
        }
        self.init(configuration: configuration, store: try SQLitePatchStore(path: configuration.database))
    }

    /// Opens the store `configuration.database` names: a PostgreSQL database for a `postgres://`
    /// URL (its schema created or migrated; any number of servers may share it), else a SQLite
    /// file. The server closes it when it stops. Throws `PostgresStoreError` when the URL is
    /// wrong or the database cannot be reached.
    ///
    /// ```swift
    /// let server = try await PatchServer.open(configuration: PatchServerConfiguration(database: "postgres://patches@127.0.0.1:5432/patches"))
    /// ```
    public static func open(configuration: PatchServerConfiguration) async throws -> PatchServer {
        guard PostgresAddress.isURL(configuration.database) else { return try PatchServer(configuration: configuration) }
        let store = try await PostgresPatchStore.open(PostgresAddress(url: configuration.database))
        return PatchServer(configuration: configuration, store: store)
    }

    private init(configuration: PatchServerConfiguration, store: any PatchStore) {
        self.configuration = configuration
        self.store = store
        var logger = Logger(label: "hybrid.patch-server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        self.logger = logger
    }

    /// Binds and serves; returns the bound port.
    public func start() async throws -> Int {
        precondition(running == nil, "PatchServer.start() called twice")
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: PatchEndpoints(store: store, configuration: configuration, metrics: metrics).router(),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), backlog: 4096),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [application],
            gracefulShutdownSignals: configuration.stopsOnTerminationSignals ? [.sigterm, .sigint] : [],
            logger: logger
        ))
        self.group = group
        let running = Task {
            defer { portSink.finish() }
            try await group.run()
        }
        self.running = running
        for await port in ports { return port }
        try await running.value
        throw PatchServerError(500, "internal", "the server stopped before it was listening on \(configuration.host):\(configuration.port)")
    }

    /// Stops accepting connections, lets requests in flight finish, closes the store.
    public func stop() async {
        await group?.triggerGracefulShutdown()
        _ = try? await running?.value
        await store.close()
    }

    /// Returns when the server has stopped; rethrows what stopped it.
    public func waitUntilStopped() async throws {
        try await running?.value
    }
}
