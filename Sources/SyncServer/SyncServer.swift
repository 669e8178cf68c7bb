// The SyncServer module: the reference server for HybridHost's two-way sync, HTTP+JSON on
// Hummingbird with its state in SQLite or PostgreSQL. It is a peer of the host, not part of it: no JavaScript, no
// bridge, no services; the host's sync client talks to it over the network like any other server.
// It must never change state for a request it refuses, nor believe a deviceId its token does not back.
import Hummingbird
import HTTPServing
import HummingbirdCore
import Logging
import PostgresStores
import ServiceLifecycle
import SyncProtocol
import SystemIO

/// The reference sync server: devices push packets of ops, the server applies them in dependency
/// order into one global log, and every device pulls the log after its cursor.
///
/// ```swift
/// let server = try SyncServer(configuration: SyncServerConfiguration(database: path))
/// let port = try await server.start()   // bound, serving on http://127.0.0.1:port
/// // ...
/// await server.stop()
/// ```
///
/// Endpoints: `POST /v1/devices`, `POST /v1/push`, `GET /v1/pull`, `GET /v1/packets/{packetId}`,
/// `GET /v1/snapshot`, `GET /v1/health`, `GET /v1/metrics` (Prometheus text, this server's alone),
/// and `GET /v1/openapi.json`, which describes them all (Sources/SyncServer/openapi.json).
/// Everything it knows is in ``SyncServerConfiguration/database`` (but the rate limit's
/// buckets and the metrics): a new server on the same file carries on.
public actor SyncServer {
    public nonisolated let configuration: SyncServerConfiguration
    public nonisolated let store: any SyncStore
    /// Whether ``stop()`` closes the store: when the server opened it.
    private let ownsStore: Bool
    private let logger: Logger
    /// Pulls held open (`waitMs`), woken by ``CommitWatcher``.
    private let held: HeldPulls
    /// What pulls answered from memory have pulled, written to the store every sweep.
    private let cursors = PulledCursors()
    /// The log's newest entries, read at each commit's news, which held pulls are answered from.
    private let recent: RecentLog
    /// This server's counters, gauges and histograms (`GET /v1/metrics`), in a registry of its own.
    private let metrics = SyncMetrics()
    /// Every connection open, within ``SyncServerConfiguration/connections`` (kept below the
    /// open-file limit the process has when the server is made).
    private let connections: ConnectionTable
    private var group: ServiceGroup?
    private var running: Task<Void, any Error>?

    /// Opens (or creates) the SQLite store at `configuration.database`.
    public init(configuration: SyncServerConfiguration) throws {
        self.init(configuration: configuration, store: try SQLiteSyncStore(path: configuration.database), ownsStore: true)
    }

    /// A server over any store; the caller closes the store once the server has stopped.
    public init(configuration: SyncServerConfiguration, store: any SyncStore) {
        self.init(configuration: configuration, store: store, ownsStore: false)
    }

    /// Opens the store `configuration.database` names: a PostgreSQL database for a
    /// `postgres://` URL (its schema created or migrated), else a SQLite file. The server closes it
    /// when it stops.
    ///
    /// ```swift
    /// let server = try await SyncServer.open(configuration: SyncServerConfiguration(database: "postgres://sync@127.0.0.1:5432/sync"))
    /// ```
    public static func open(configuration: SyncServerConfiguration) async throws -> SyncServer {
        guard PostgresAddress.isURL(configuration.database) else { return try SyncServer(configuration: configuration) }
        let address: PostgresAddress
        do {
            address = try PostgresAddress(url: configuration.database)
        } catch let error as PostgresStoreError {
            throw SyncServerError(.badRequest, error.message)
        }
        let store = try await PostgresSyncStore.open(address)
        return SyncServer(configuration: configuration, store: store, ownsStore: true)
    }

    private init(configuration: SyncServerConfiguration, store: any SyncStore, ownsStore: Bool) {
        self.configuration = configuration
        self.store = store
        self.ownsStore = ownsStore
        // Hummingbird logs to stdout at info level by default; the command line promises one line
        // there, so the server reports only trouble, and on stderr.
        var logger = Logger(label: "hybrid.sync-server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        self.logger = logger
        held = HeldPulls(clock: configuration.clock)
        recent = RecentLog(store: store, held: held, metrics: metrics, clock: configuration.clock, logger: logger)
        connections = ConnectionTable(limits: configuration.connections.capped(openFiles: FileDescriptorLimit.current.soft))
    }

    /// Binds and starts serving; returns the bound port (the real one when the configuration says 0).
    /// Throws when the address cannot be bound. A server starts once; make a new one (on the same
    /// database, if need be) to serve again.
    public func start() async throws -> Int {
        precondition(running == nil, "SyncServer.start() called twice")
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        metrics.limits(configuration.limitFigures(connections: connections.limits))
        let (connections, metrics) = (connections, metrics)
        let endpoints = SyncEndpoints(store: store, configuration: configuration, held: held, recent: recent, cursors: cursors,
                                      metrics: metrics, connections: connections)
        // Every connection passes a guard of its own, between the HTTP codec and the requests.
        let http = HTTP1Channel.Configuration(additionalChannelHandlers: [ConnectionGuard(table: connections, metrics: metrics)])
        let application = Application(
            router: endpoints.router(),
            server: configuration.certificate.map { .https(http, certificate: $0) } ?? .http1(configuration: http),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    backlog: configuration.backlog),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        let sweeper = HeldPacketSweeper(store: store, cursors: cursors, hold: configuration.hold, interval: configuration.sweepInterval,
                                        retain: configuration.retain, compactionInterval: configuration.compactionInterval,
                                        clock: configuration.clock, metrics: metrics, logger: logger)
        var services: [any Service] = [application, sweeper, CommitWatcher(store: store, held: held, recent: recent, logger: logger),
                                       FreedMemoryRelease(connections: connections)]
        if configuration.stopsOnTerminationSignals, let certificate = configuration.certificate {
            services.append(CertificateReloadOnHangup(certificate: certificate) { line in
                StandardStreams.write("sync-server: \(line)\n", to: 2)
            })
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            // Shut down last to first: held pulls answer before the application drains its requests.
            services: services,
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
        // The group ended before the server came up: its error says why (the address in use, say).
        try await running.value
        throw SyncServerError(.internalError, "the server stopped before it was listening on \(configuration.host):\(configuration.port)")
    }

    /// Pulls held open right now, waiting for a commit or their `waitMs`.
    public nonisolated var heldPulls: Int { held.count }

    /// Connections open right now, and how many of them have no request in progress.
    public nonisolated var connectionCounts: (open: Int, idle: Int) { connections.counts }

    /// Stops accepting connections, answers held pulls, lets requests in flight finish, and returns once it has stopped.
    public func stop() async {
        await group?.triggerGracefulShutdown()
        _ = try? await running?.value
        if ownsStore { await store.close() }
    }

    /// Returns when the server has stopped (after ``stop()``, or SIGINT/SIGTERM when
    /// ``SyncServerConfiguration/stopsOnTerminationSignals`` is set); rethrows what stopped it, if
    /// it failed.
    public func waitUntilStopped() async throws {
        try await running?.value
    }
}
