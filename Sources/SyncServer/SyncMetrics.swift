import Prometheus

/// One server's metrics, served as Prometheus text at `GET /v1/metrics`.
///
/// Each ``SyncServer`` has a `PrometheusCollectorRegistry` of its own and makes its counters,
/// gauges and histograms on it directly, rather than through swift-metrics' process-wide
/// `MetricsSystem.bootstrap`: a process may run several servers (the tests run dozens at once,
/// some as two instances over one PostgreSQL database), the bootstrap can be done once per process
/// only, and a shared registry would add one server's requests to another's figures. The price is
/// that a library recording through swift-metrics' global front end (none of ours does) would not
/// show here.
///
/// ```swift
/// metrics.answered("push", status: 200, took: .milliseconds(3))
/// let text = metrics.exposition(store: figures, longPolls: 0, connections: (1, 0))   // # TYPE hybrid_sync_requests_total counter ...
/// ```
final class SyncMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// 1 ms to 60 s (the longest `waitMs`), about three buckets a decade.
    static let buckets: [Duration] = [
        .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .microseconds(2_500_000), .seconds(5),
        .seconds(10), .seconds(30), .seconds(60),
    ]

    private let pullHeld: DurationHistogram
    private let heldPackets: Gauge
    private let logLastSeq: Gauge
    private let logEntries: Gauge
    private let longPolls: Gauge
    private let compactions: Counter
    private let pullsFromMemory: Counter
    private let pullsFromStore: Counter
    private let commitsFromNews: Counter
    private let compactedOps: Counter
    private let storeLatency: Gauge
    private let storeUp: Gauge
    private let connectionsOpen: Gauge
    private let connectionsIdle: Gauge

    init() {
        pullHeld = registry.makeDurationHistogram(
            descriptor: Self.name("pull_held", unit: "seconds",
                                  "How long pulls with waitMs were held waiting for a commit: the time request_duration_seconds leaves out."),
            buckets: Self.buckets)
        heldPackets = registry.makeGauge(descriptor: Self.name("held_packets", unit: "",
                                                               "Pushed packets held until the packet they depend on arrives, in the whole store."))
        logLastSeq = registry.makeGauge(descriptor: Self.name("log_last_seq", unit: "",
                                                              "The op log's last seq: every op ever applied, by any server sharing the store (its rate is ops applied a second)."))
        logEntries = registry.makeGauge(descriptor: Self.name("log_entries", unit: "", "Entries in the op log now, what compaction has not removed."))
        longPolls = registry.makeGauge(descriptor: Self.name("long_polls", unit: "", "Pulls with waitMs held open on this server right now."))
        pullsFromMemory = registry.makeCounter(descriptor: Self.name("pull_reads_from_memory", unit: "total",
                                                                     "Reads of held pulls answered from the log's newest entries kept in memory, not the store."))
        pullsFromStore = registry.makeCounter(descriptor: Self.name("pull_reads_from_store", unit: "total",
                                                                    "Reads of pulls answered by the store: pulls without waitMs, and held pulls memory could not answer (a cursor older than what it keeps, or before its first read)."))
        commitsFromNews = registry.makeCounter(descriptor: Self.name("log_commits_from_news", unit: "total",
                                                                     "Commits whose new log entries came with their notification (PostgreSQL's NOTIFY), so this server did not read them back."))
        compactions = registry.makeCounter(descriptor: Self.name("compactions", unit: "total", "Compactions of the op log this server ran."))
        compactedOps = registry.makeCounter(descriptor: Self.name("compacted_ops", unit: "total",
                                                                  "Op log entries those compactions removed."))
        storeLatency = registry.makeGauge(descriptor: Self.name("store_latency", unit: "seconds",
                                                                "The round trip through the store (SELECT 1) at the last health check or scrape."))
        storeUp = registry.makeGauge(descriptor: Self.name("store_up", unit: "",
                                                           "1 when the store answered the last health check or scrape in time, 0 when it did not."))
        connectionsOpen = registry.makeGauge(descriptor: Self.name("connections_open", unit: "", "HTTP connections open on this server now."))
        connectionsIdle = registry.makeGauge(descriptor: Self.name("connections_idle", unit: "",
                                                                   "Of those, the ones with no request in progress: the first closed to make room."))
    }

    /// `hybrid_sync_NAME_UNIT`, with its help line.
    static func name(_ name: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "hybrid", subsystem: "sync", metricName: name, unitName: unit, helpText: help)
    }

    // Families with labels: their collectors are made as label values first appear. Computed,
    // since a descriptor is not Sendable.
    static var requests: MetricNameDescriptor { name("requests", unit: "total", "HTTP requests answered, by endpoint and status code.") }
    static var duration: MetricNameDescriptor {
        name("request_duration", unit: "seconds", "Time to answer a request, by endpoint; a held pull's wait is left out (pull_held_seconds).")
    }
    static var pushes: MetricNameDescriptor {
        name("pushes", unit: "total",
             "Push requests the store decided, by outcome: applied, replayed (a packet already recorded), held, rejected, refused (an op out of scope).")
    }
    static var ops: MetricNameDescriptor {
        name("ops", unit: "total", "Ops in pushes, by outcome: applied (logged now), duplicate (already logged), refused (their packet rejected or refused).")
    }

    static var limit: MetricNameDescriptor {
        name("limit", unit: "", "The server's limits, by name: timeouts in seconds, connections, body bytes, devices and held pulls per user, requests a second.")
    }
    static var connectionsClosed: MetricNameDescriptor {
        name("connections_closed", unit: "total",
             "Connections the server closed, by reason: head_timeout, body_timeout, idle_timeout (the peer kept it waiting), evicted (the oldest idle, to make room for a new one).")
    }
    static var connectionsRefused: MetricNameDescriptor {
        name("connections_refused", unit: "total",
             "New connections closed at once, by the bound in the way (address or total), when every connection in its way had a request in progress.")
    }
    static var refusals: MetricNameDescriptor {
        name("refusals", unit: "total",
             "Requests refused by a limit, by limit: rate (a user's or device token's requests a second), auth_failures (an address's failed authentications), held_pulls (per user), devices (per user), body (413).")
    }

    // MARK: Recording

    /// The server's limits, set once as it starts (`name` as in ``limit``'s help).
    func limits(_ limits: [(name: String, value: Double)]) {
        for (name, value) in limits {
            registry.makeGauge(descriptor: Self.limit, labels: [("name", name)]).set(value)
        }
    }

    /// The server closed a connection (`reason` a label of ``connectionsClosed``).
    func connectionClosed(reason: String) {
        registry.makeCounter(descriptor: Self.connectionsClosed, labels: [("reason", reason)]).increment()
    }

    /// A new connection refused for want of room (`bound`: address or total).
    func connectionRefused(bound: String) {
        registry.makeCounter(descriptor: Self.connectionsRefused, labels: [("bound", bound)]).increment()
    }

    /// A request refused by `limit` (a label of ``refusals``).
    func refused(by limit: String) {
        registry.makeCounter(descriptor: Self.refusals, labels: [("limit", limit)]).increment()
    }

    /// A request answered: `endpoint` is a route's name, or `unknown` for a path the server has not.
    /// `took` excludes the time a pull spent held.
    func answered(_ endpoint: String, status: Int, took: Duration) {
        registry.makeCounter(descriptor: Self.requests, labels: [("endpoint", endpoint), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: Self.duration, labels: [("endpoint", endpoint)], buckets: Self.buckets).record(took)
    }

    /// A pull that waited `duration` for a commit (or its `waitMs`, or the shutdown).
    func pullHeld(_ duration: Duration) {
        pullHeld.record(duration)
    }

    /// A push the store decided: `outcome` a label of ``pushes``; `ops` by outcome of ``ops``.
    func pushed(_ outcome: String, ops: [(outcome: String, count: Int)]) {
        registry.makeCounter(descriptor: Self.pushes, labels: [("outcome", outcome)]).increment()
        for (opOutcome, count) in ops {
            registry.makeCounter(descriptor: Self.ops, labels: [("outcome", opOutcome)]).increment(by: Int64(count))
        }
    }

    /// A held pull's read answered from memory (``RecentLog``).
    func pulledFromMemory() {
        pullsFromMemory.increment()
    }

    /// A pull's read answered by the store.
    func pulledFromStore() {
        pullsFromStore.increment()
    }

    /// A commit's entries taken from its news, not read (``RecentLog/heard(_:)``).
    func commitFromNews() {
        commitsFromNews.increment()
    }

    func compacted(_ compaction: Compaction) {
        compactions.increment()
        compactedOps.increment(by: Int64(compaction.removed))
    }

    /// What a health check found: the round trip, or nil when the store did not answer.
    func storeChecked(latency: Duration?) {
        storeUp.set(Int64(latency == nil ? 0 : 1))
        if let latency { storeLatency.set(latency.seconds) }
    }

    /// The text exposition, with the gauges read now: `store`'s (nil when it did not answer, which
    /// leaves the last figures), `longPolls` and `connections` from the server.
    func exposition(store: StoreFigures?, longPolls: Int, connections: (open: Int, idle: Int)) -> [UInt8] {
        if let store {
            heldPackets.set(Int64(store.heldPackets))
            logLastSeq.set(Int64(store.lastSeq))
            logEntries.set(Int64(store.logEntries))
        }
        self.longPolls.set(Int64(longPolls))
        connectionsOpen.set(Int64(connections.open))
        connectionsIdle.set(Int64(connections.idle))
        return registry.emitToBuffer()
    }
}
