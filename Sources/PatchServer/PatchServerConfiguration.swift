import HTTPServing
import SyncAuth

/// How a ``PatchServer`` listens, whom it believes and where it keeps its state.
///
/// ```swift
/// var configuration = PatchServerConfiguration(database: "/tmp/patches.sqlite")
/// configuration.tokenVerifier = TokenVerifier(secret: secret)
/// ```
public struct PatchServerConfiguration: Sendable {
    /// A SQLite file (created when missing), or a `postgres://USER@HOST:PORT/DATABASE` URL (see
    /// `PostgresAddress`: `sslmode`, `PGPASSWORD`) for a database that any number of servers share
    /// (``PatchServer/open(configuration:)``).
    public var database: String
    public var host: String
    /// 0 for an ephemeral port.
    public var port: Int
    /// Verifies publishers' (`publish:APP`) and devices' (`device:APP`) tokens. Nil is an insecure
    /// server (`--insecure-no-auth`): every caller may publish, and a report names its `deviceId`.
    public var tokenVerifier: TokenVerifier?
    /// The largest request body accepted (a patch file with its sources); 413 past it.
    public var maxBodyBytes: Int
    /// Whether SIGINT and SIGTERM stop the server gracefully (the command line sets it).
    public var stopsOnTerminationSignals: Bool
    /// Suggested seconds until a device's next check (`checkAfter`), nil to leave it to the device.
    public var checkAfter: Int?
    /// Requests a second per caller (a token's subject; a check without a token, per address),
    /// after a burst: past it, 429 with `Retry-After`. ``RateLimit/off`` for a benchmark.
    public var rateLimit = RateLimit.standard
    /// Failed authentications (401) a second per address, after a burst: past it, 429 for that
    /// address's requests before their token is looked at.
    public var authFailureLimit = RateLimit(requestsPerSecond: 10, burst: 100)
    /// How long `GET /v1/health` waits for the store before answering 503.
    public var healthTimeout: Duration = .seconds(5)

    public init(database: String, host: String = "127.0.0.1", port: Int = 0, tokenVerifier: TokenVerifier? = nil,
                maxBodyBytes: Int = 16 * 1024 * 1024, stopsOnTerminationSignals: Bool = false, checkAfter: Int? = nil) {
        self.database = database
        self.host = host
        self.port = port
        self.tokenVerifier = tokenVerifier
        self.maxBodyBytes = maxBodyBytes
        self.stopsOnTerminationSignals = stopsOnTerminationSignals
        self.checkAfter = checkAfter
    }
}
