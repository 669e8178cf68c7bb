import HTTPServing
import SyncAuth
import SystemIO

/// How a ``SyncServer`` listens, whom it believes, and where it keeps its state.
///
/// ```swift
/// var configuration = SyncServerConfiguration(database: "/tmp/sync.sqlite")
/// configuration.port = 0                // any free port; `start()` returns the one bound
/// configuration.hold = .milliseconds(300) // tests need not wait 30 s for a rejection
/// ```
public struct SyncServerConfiguration: Sendable {
    /// The address to bind; loopback unless told otherwise: without ``certificate`` the server
    /// speaks plain HTTP, and a proxy in front should add TLS.
    public var host: String
    /// HTTPS with this certificate and key (`--tls-cert`, `--tls-key`); nil serves plain HTTP.
    /// ``ServerCertificate/reload()`` renews it while the server runs; the command line's server
    /// reloads it on SIGHUP.
    public var certificate: ServerCertificate?
    /// 0 for an ephemeral port.
    public var port: Int
    /// The SQLite file (created when missing; its `-wal` and `-shm` files sit beside it), or a
    /// `postgres://USER@HOST:PORT/DATABASE` URL (see ``PostgresAddress``) for a database that
    /// several servers share. ``SyncServer/open(configuration:)`` tells them apart.
    public var database: String
    /// How long a held packet may wait for its dependency to arrive before it is rejected.
    public var hold: Duration
    /// The largest request body accepted; larger ones get 413 before they are parsed.
    public var maxBodyBytes: Int
    /// Whether SIGINT and SIGTERM stop the server gracefully (and SIGHUP reloads ``certificate``).
    /// The command line sets it; tests leave it off, since signal handlers belong to the whole process.
    public var stopsOnTerminationSignals: Bool
    /// Verifies the app's tokens: every request needs one, and a device is bound to its `sub`. Nil
    /// is an insecure server (`--insecure-no-auth`): devices register freely and see every scope.
    public var tokenVerifier: TokenVerifier?
    /// How long the op log keeps an entry that every active device has pulled, and how long a
    /// device may stay away and still count as active (`--retain-days`, 30 days).
    public var retain: Duration = .seconds(30 * 86_400)
    /// How often the log is compacted.
    public var compactionInterval: Duration = .seconds(60)
    /// How many requests a second each user may make, all their devices together (each device on
    /// an insecure server) (`--rate-limit`, `--rate-burst`); past it, 429 with `Retry-After`,
    /// before the request's body is read. ``RateLimit/off`` for a benchmark that measures the
    /// server itself.
    public var rateLimit = RateLimit.standard
    /// How many failed authentications (401) each peer address may have (`--auth-failure-limit`,
    /// a burst of 100 and then 10 a second by default); past it, its requests get 429 before their
    /// token is looked at.
    public var authFailureLimit = RateLimit(requestsPerSecond: 10, burst: 100)
    /// Timeouts and bounds on connections (`--head-timeout`, `--body-timeout`, `--idle-timeout`,
    /// `--max-connections`, `--max-connections-per-address`).
    public var connections = ConnectionLimits()
    /// Devices one user may register (`--max-devices-per-user`); past it, 429.
    public var maxDevicesPerUser = 100
    /// Pulls one user may hold open at once with `waitMs` (`--max-held-pulls-per-user`); past it,
    /// 429. On an insecure server, per device.
    public var maxHeldPullsPerUser = 100
    /// Tables whose scope column the server fixes (`--table-scope TABLE=COLUMN`, or `TABLE=` for no
    /// scope column): an op on one of them that declares another is refused with 400. Other tables
    /// take the scope column their user's first op declares.
    public var tableScopes: [String: String?] = [:]
    /// How many connections the kernel queues for the server before it accepts them (`--backlog`).
    /// Hummingbird's 256 resets connections when thousands of devices long-poll one server and
    /// reconnect at once (a restart, a network blip); the kernel caps it at
    /// `/proc/sys/net/core/somaxconn` (4096 on current Linux).
    public var backlog = 4096
    /// How long `GET /v1/health` waits for the store before answering 503 (and `GET /v1/metrics`
    /// before answering without it).
    public var healthTimeout: Duration = .seconds(5)
    /// How far ahead of the server's clock an op's timestamp may be (`--max-clock-skew`, 5
    /// minutes); a push with one later is refused with 400 naming the op's field. A device's clock
    /// a little fast is normal; one far ahead is wrong or hostile.
    public var maxClockSkew: Duration = .seconds(300)
    /// What the server reads the time from: its sweeps, held pulls' deadlines, rate limits and
    /// timeouts run on it, and the stores stamp its wall time. Tests give HostTesting's
    /// `ManualClock` and move it on instead of sleeping.
    public var clock: any HostClock = SystemClock()

    public init(database: String, host: String = "127.0.0.1", port: Int = 0, hold: Duration = .seconds(30),
                maxBodyBytes: Int = 8 * 1024 * 1024, stopsOnTerminationSignals: Bool = false, tokenVerifier: TokenVerifier? = nil) {
        self.tokenVerifier = tokenVerifier
        self.database = database
        self.host = host
        self.port = port
        self.hold = hold
        self.maxBodyBytes = maxBodyBytes
        self.stopsOnTerminationSignals = stopsOnTerminationSignals
    }

    /// How often held packets are swept: every second, or more often when the hold is short, so an
    /// overdue packet waits at most about a quarter of its hold beyond its deadline.
    public var sweepInterval: Duration { min(.seconds(1), max(.milliseconds(50), hold / 4)) }

    /// The limits by name, as `GET /v1/metrics` shows them (`hybrid_sync_limit{name=...}`), with
    /// the connection bounds as the server applies them (`connections`, capped by its open files).
    func limitFigures(connections: ConnectionLimits) -> [(name: String, value: Double)] {
        [("head_timeout_seconds", connections.headTimeout.seconds), ("body_timeout_seconds", connections.bodyTimeout.seconds),
         ("idle_timeout_seconds", connections.idleTimeout.seconds), ("max_connections", Double(connections.maxConnections)),
         ("max_connections_per_address", Double(connections.maxConnectionsPerAddress)), ("max_body_bytes", Double(maxBodyBytes)),
         ("max_devices_per_user", Double(maxDevicesPerUser)), ("max_held_pulls_per_user", Double(maxHeldPullsPerUser)),
         ("rate_limit_per_second", rateLimit.requestsPerSecond), ("rate_burst", rateLimit.burst),
         ("auth_failures_per_second", authFailureLimit.requestsPerSecond), ("auth_failure_burst", authFailureLimit.burst),
         ("hold_seconds", hold.seconds), ("max_clock_skew_seconds", maxClockSkew.seconds), ("max_wait_ms", Double(SyncEndpoints.maximumWaitMs))]
    }
}
