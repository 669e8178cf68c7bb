import JSON

/// An op as the log holds it: the op, the device that pushed it, and its place in the global order.
///
/// The op's `timestamp` here is the server's: the time it logged the op, on a clock that never
/// goes back (a hybrid logical clock: never behind the server's wall clock, always past the op
/// logged before), which is what the fold orders by. The time the device gave it, the user's
/// time, is ``deviceTimestamp``.
///
/// Wire form (in a pull): the op's fields plus `"seq"`, `"deviceId"` and `"deviceTimestamp"`.
public struct LoggedOperation: Sendable, Equatable {
    /// Global and never reused (an AUTOINCREMENT key): folding ops in `seq` order gives the server's state.
    public var seq: Int
    public var deviceId: String
    public var operation: SyncOperation
    /// The timestamp the device gave the op (milliseconds since 1970); nil from a server that
    /// predates the server's clock, whose `timestamp` was the device's.
    public var deviceTimestamp: Double?

    public init(seq: Int, deviceId: String, operation: SyncOperation, deviceTimestamp: Double? = nil) {
        self.seq = seq
        self.deviceId = deviceId
        self.operation = operation
        self.deviceTimestamp = deviceTimestamp
    }

    public var json: JSONValue {
        var object = operation.json
        object["seq"] = .number(Double(seq))
        object["deviceId"] = .string(deviceId)
        if let deviceTimestamp { object["deviceTimestamp"] = .number(deviceTimestamp) }
        return .object(object)
    }

    /// Reads one op of a pull page; `pointer` (`/ops/3`) prefixes the path of any field at fault.
    /// The log writes `data` and `dependencyId` always (null for none), so they must be there.
    public static func decode(_ value: JSONValue, at pointer: String) throws(SyncWireError) -> LoggedOperation {
        let operation = try SyncOperation.decode(value, at: pointer)
        let fields = try FieldReader(value, at: pointer)
        for key in ["data", "dependencyId"] where fields.object[key] == nil {
            throw SyncWireError.field(fields.path(key), expected: key == "data" ? "object or null" : "string or null", got: nil)
        }
        var deviceTimestamp: Double?
        if fields.object["deviceTimestamp"] != nil { deviceTimestamp = try fields.number("deviceTimestamp") }
        return LoggedOperation(seq: try fields.integer("seq"), deviceId: try fields.text("deviceId"), operation: operation, deviceTimestamp: deviceTimestamp)
    }
}
