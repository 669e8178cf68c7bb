import JSON

/// One committed change, as `storage.watch` hands it out.
public struct ChangeEvent: Sendable, Equatable {
    public enum Kind: String, Sendable { case insert, update, delete, refresh }

    /// Monotonic per database and process, in commit order.
    public var seq: Int64
    public var kind: Kind
    public var table: String
    /// The primary key's value (an array for a composite key; the rowid for a table without one).
    public var key: JSONValue
    /// The row after an insert or update; nil for delete and refresh.
    public var record: JSONObject?

    public init(seq: Int64 = 0, kind: Kind, table: String, key: JSONValue, record: JSONObject? = nil) {
        self.seq = seq
        self.kind = kind
        self.table = table
        self.key = key
        self.record = record
    }

    public var jsonValue: JSONValue {
        var object = JSONObject(minimumCapacity: 5)
        object.appendUnique("seq", .number(Double(seq)))
        object.appendUnique("type", .string(kind.rawValue))
        object.appendUnique("table", .string(table))
        object.appendUnique("key", key)
        if let record { object.appendUnique("record", .object(record)) }
        return .object(object)
    }
}

/// What a watcher receives: the events after its `since`, and the `seq` to pass next time.
public struct WatchBatch: Sendable, Equatable {
    public var events: [ChangeEvent]
    public var seq: Int64

    public var jsonValue: JSONValue {
        ["events": .array(events.map(\.jsonValue)), "seq": .number(Double(seq))]
    }
}
