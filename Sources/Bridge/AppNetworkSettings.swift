import JSON

/// What `app.json`'s `network` section says about how the app's requests run (each field
/// optional). The `transfers` and `transfersQueued` quotas bound the app's requests as a whole;
/// this section bounds them per host, as browsers do: past `connectionsPerHost` requests running to
/// one host (scheme, host and port), the next ones to it wait in order while other hosts' go on.
public struct AppNetworkSettings: Sendable, Equatable {
    /// Requests running at once to one host; a browser's limit for HTTP/1.1 by default.
    public var connectionsPerHost: Int

    public static let defaults = AppNetworkSettings()

    public init(connectionsPerHost: Int = 6) {
        self.connectionsPerHost = connectionsPerHost
    }

    /// The fields `app.json` may set, with the least and most each may be.
    nonisolated(unsafe) static let fields: [(name: String, minimum: Int, maximum: Int, keyPath: WritableKeyPath<AppNetworkSettings, Int>)] = [
        ("connectionsPerHost", 1, 1_000_000, \.connectionsPerHost),
    ]

    /// The defaults with what `value` (the `network` object of `app.json`) sets; `source` names it
    /// in errors ("app.json: network").
    public static func parse(_ value: JSONValue?, source: String) throws(QuotaError) -> AppNetworkSettings {
        var settings = AppNetworkSettings.defaults
        guard let value else { return settings }
        guard case .object(let object) = value else { throw QuotaError("\(source): expected an object, got \(value.typeName)") }
        for member in object.members {
            guard let field = fields.first(where: { $0.name == member.key }) else {
                throw QuotaError("\(source).\(member.key): unknown setting; expected one of \(fields.map(\.name).joined(separator: ", "))")
            }
            guard case .number(let number) = member.value, number.rounded() == number,
                  number >= Double(field.minimum), number <= Double(field.maximum) else {
                throw QuotaError("\(source).\(member.key): expected an integer from \(field.minimum) to \(field.maximum), got \(member.value)")
            }
            settings[keyPath: field.keyPath] = Int(number)
        }
        return settings
    }
}
