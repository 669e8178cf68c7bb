import HTTPServing
import Prometheus

/// One patch server's metrics, served as Prometheus text at `GET /v1/metrics`: a registry of its
/// own (not swift-metrics' process-wide bootstrap), as the sync server's, so that several servers
/// in one process keep their figures apart.
///
/// ```swift
/// metrics.checked(offered: true)
/// let text = metrics.exposition(offersCached: 3)   // # TYPE hybrid_patch_checks_total counter ...
/// ```
final class PatchMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// 0.5 ms to 10 s: a check answered from the offer cache takes well under a millisecond, a
    /// delta made at zstd's level 19 for a large module a good part of a second.
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .microseconds(2_500_000),
        .seconds(5), .seconds(10),
    ]

    private let offersCached: Gauge
    private let offersMade: Counter

    init() {
        offersCached = registry.makeGauge(descriptor: Self.name("offers_cached", unit: "",
                                                                "Offers kept ready (by patch and the module hashes a device ran), so that a fleet's checks do not make the same delta again."))
        offersMade = registry.makeCounter(descriptor: Self.name("offers_made", unit: "total",
                                                                "Offers made: the patch read and a zstd delta made for each module the device runs an older source of. Once per patch and module hashes while cached, however many checks ask at once."))
    }

    /// `hybrid_patch_NAME_UNIT`, with its help line.
    static func name(_ name: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "hybrid", subsystem: "patch", metricName: name, unitName: unit, helpText: help)
    }

    // Families with labels: their collectors are made as label values first appear. Computed,
    // since a descriptor is not Sendable.
    static var requests: MetricNameDescriptor { name("requests", unit: "total", "HTTP requests answered, by endpoint and status code.") }
    static var duration: MetricNameDescriptor { name("request_duration", unit: "seconds", "Time to answer a request, by endpoint.") }
    static var checks: MetricNameDescriptor {
        name("checks", unit: "total", "Devices' checks answered, by outcome: offered (a patch offered) or none (nothing for that device).")
    }
    static var reports: MetricNameDescriptor {
        name("reports", unit: "total",
             "Devices' reports, by event (downloaded, applied, confirmed, rolledBack) and whether they counted (false: a repeat, or a confirmation or rollback from a device that never reported applied).")
    }
    static var refusals: MetricNameDescriptor {
        name("refusals", unit: "total", "Requests refused with 429 by a limit: rate (a caller's requests a second), auth_failures (an address's failed authentications).")
    }
    static var changes: MetricNameDescriptor {
        name("changes", unit: "total", "Changes to published patches, by action (publish, rollout, halt, resume, revoke) and by whom: server (the automatic halt) or publisher.")
    }

    // MARK: Recording

    func checked(offered: Bool) {
        registry.makeCounter(descriptor: Self.checks, labels: [("outcome", offered ? "offered" : "none")]).increment()
    }

    func refused(by limit: String) {
        registry.makeCounter(descriptor: Self.refusals, labels: [("limit", limit)]).increment()
    }

    func offerMade() {
        offersMade.increment()
    }

    func reported(event: String, counted: Bool) {
        registry.makeCounter(descriptor: Self.reports, labels: [("event", event), ("counted", counted ? "true" : "false")]).increment()
    }

    func changed(_ action: String, byServer: Bool) {
        registry.makeCounter(descriptor: Self.changes, labels: [("action", action), ("by", byServer ? "server" : "publisher")]).increment()
    }

    /// The text exposition, with the gauges read now.
    func exposition(offersCached: Int) -> [UInt8] {
        self.offersCached.set(Int64(offersCached))
        return registry.emitToBuffer()
    }
}

extension PatchMetrics: RequestMetrics {
    /// The serving layer's record of an answer, under the route's name (`check` for
    /// `/v1/apps/{app}/check`), or `unknown` for a path the server has not.
    func answered(route: String?, status: Int, took: Duration) {
        let endpoint = PatchRoute.route(routerPath: route)?.rawValue ?? "unknown"
        registry.makeCounter(descriptor: Self.requests, labels: [("endpoint", endpoint), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: Self.duration, labels: [("endpoint", endpoint)], buckets: Self.buckets).record(took)
    }
}
