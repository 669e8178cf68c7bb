import JSON

/// What one app may use, from `app.json`'s `quotas` (each field optional; the defaults below are
/// generous for a business app and small enough that a runaway script hits them long before it
/// hurts the machine). A quota hit is a clear error, never a crash or a hang: `E_TOO_MANY` for
/// calls in flight, `E_FAILED` with `details.reason` `"quota"` for storage.
public struct AppQuotas: Sendable, Equatable {
    /// Bridge calls in flight at once (long-polls and subscriptions included).
    public var callsInFlight: Int
    /// Bytes of each storage database file.
    public var databaseBytes: Int
    /// Bytes of the app's kv file.
    public var kvBytes: Int

    public static let defaults = AppQuotas(callsInFlight: 10_000, databaseBytes: 1 << 30, kvBytes: 256 << 20)

    public init(callsInFlight: Int, databaseBytes: Int, kvBytes: Int) {
        self.callsInFlight = callsInFlight
        self.databaseBytes = databaseBytes
        self.kvBytes = kvBytes
    }

    /// The fields `app.json` may set, with the least each may be. (Key paths are immutable values;
    /// they are not marked Sendable.)
    nonisolated(unsafe) static let fields: [(name: String, minimum: Int, keyPath: WritableKeyPath<AppQuotas, Int>)] = [
        ("callsInFlight", 1, \.callsInFlight),
        ("databaseBytes", 65_536, \.databaseBytes),
        ("kvBytes", 65_536, \.kvBytes),
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
