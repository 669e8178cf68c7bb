import JSON
import Persistence

/// What `kv.get` returns: the value, its metadata and its times (milliseconds since the epoch).
public struct KeyValueEntry: Sendable, Equatable {
    public var value: JSONValue
    public var metadata: JSONValue
    public var createdAt: Double
    public var updatedAt: Double
    public var expiresAt: Double?

    public func isExpired(at now: Double) -> Bool { expiresAt.map { $0 <= now } ?? false }

    public var jsonValue: JSONValue {
        ["value": value, "metadata": metadata, "createdAt": .number(createdAt), "updatedAt": .number(updatedAt),
         "expiresAt": expiresAt.map(JSONValue.number) ?? .null]
    }
}
