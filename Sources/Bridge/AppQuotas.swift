import JSON

/// What one app may use, from `app.json`'s `quotas` (each field optional; the defaults below are
/// generous for a business app and small enough that a runaway script hits them long before it
/// hurts the machine). A quota hit is a clear error, never a crash or a hang: `E_TOO_MANY` for
/// calls in flight, for transfers waiting past `transfersQueued` and for offline requests past `queuedRequests`, `E_FAILED` with `details.reason` `"quota"` for storage and
/// `"body_too_large"` for a response, `E_TOO_LARGE` for a view; past `memoryBytes` the script is
/// stopped with a `MemoryLimitError` and the run exits 1, rather than the kernel killing it.
public struct AppQuotas: Sendable, Equatable {
    /// Bridge calls in flight at once (long-polls and subscriptions included).
    public var callsInFlight: Int
    /// Bytes of each storage database file.
    public var databaseBytes: Int
    /// Bytes of the app's kv file.
    public var kvBytes: Int
    /// `network.request` and `network.download` calls running at once; more wait in order.
    public var transfers: Int
    /// `network.request` and `network.download` calls waiting for one of the `transfers` slots (or
    /// for their host's, `app.json` `network.connectionsPerHost`); one more is `E_TOO_MANY`. 0
    /// refuses a call past the running limits at once instead of queueing it.
    public var transfersQueued: Int
    /// Requests in the app's offline queue (`network.enqueue`) not yet delivered: pending, being
    /// sent, or failed and kept for `queueRetry`; one more is `E_TOO_MANY`.
    public var queuedRequests: Int
    /// Bytes of one network response body; a request's `maxBytes` may only lower it.
    public var responseBytes: Int
    /// Nodes of the view tree once its lists are expanded.
    public var viewNodes: Int
    /// How far the process's resident memory may grow while the app runs: what a runaway JS heap
    /// drives, since JavaScriptCore has no heap cap of its own (the engine's `MemoryGuard`).
    public var memoryBytes: Int

    public static let defaults = AppQuotas()

    public init(callsInFlight: Int = 10_000, databaseBytes: Int = 1 << 30, kvBytes: Int = 256 << 20,
                transfers: Int = 256, transfersQueued: Int = 10_000, queuedRequests: Int = 10_000, responseBytes: Int = 64 << 20, viewNodes: Int = 50_000,
                memoryBytes: Int = 1 << 30) {
        self.callsInFlight = callsInFlight
        self.databaseBytes = databaseBytes
        self.kvBytes = kvBytes
        self.transfers = transfers
        self.transfersQueued = transfersQueued
        self.queuedRequests = queuedRequests
        self.responseBytes = responseBytes
        self.viewNodes = viewNodes
        self.memoryBytes = memoryBytes
    }

    /// The fields `app.json` may set, with the least each may be. (Key paths are immutable values;
    /// they are not marked Sendable.)
    nonisolated(unsafe) static let fields: [(name: String, minimum: Int, keyPath: WritableKeyPath<AppQuotas, Int>)] = [
        ("callsInFlight", 1, \.callsInFlight),
        ("databaseBytes", 65_536, \.databaseBytes),
        ("kvBytes", 65_536, \.kvBytes),
        ("transfers", 1, \.transfers),
        ("transfersQueued", 0, \.transfersQueued),
        ("queuedRequests", 0, \.queuedRequests),
        ("responseBytes", 1024, \.responseBytes),
        ("viewNodes", 16, \.viewNodes),
        ("memoryBytes", 16 << 20, \.memoryBytes),
    ]

    /// The defaults with what `value` (the `quotas` object of `app.json`) sets; `source` names it
    /// in errors ("app.json: quotas").
    public static func parse(_ value: JSONValue?, source: String) throws(QuotaError) -> AppQuotas {
        var quotas = AppQuotas.defaults
        guard let value else { return quotas }
        guard case .object(let object) = value else { throw QuotaError("\(source): expected an object, got \(value.typeName)") }
        for member in object.members {
            guard let field = fields.first(where: { $0.name == member.key }) else {
                throw QuotaError("\(source).\(member.key): unknown quota; expected one of \(fields.map(\.name).joined(separator: ", "))")
            }
            guard case .number(let number) = member.value, number.rounded() == number, number >= Double(field.minimum), number <= 1e15 else {
                throw QuotaError("\(source).\(member.key): expected an integer of at least \(field.minimum), got \(member.value)")
            }
            quotas[keyPath: field.keyPath] = Int(number)
        }
        return quotas
    }
}

/// A `quotas` object that does not say what it should.
public struct QuotaError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
