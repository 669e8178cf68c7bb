import JSON

/// An op as the log holds it: the op, the device that pushed it, and its place in the global order.
///
/// Wire form (in a pull): the op's fields plus `"seq"` and `"deviceId"`.
public struct LoggedOperation: Sendable, Equatable {
    /// Global and never reused (an AUTOINCREMENT key): folding ops in `seq` order gives the server's state.
    public var seq: Int
    public var deviceId: String
    public var operation: SyncOperation

    public init(seq: Int, deviceId: String, operation: SyncOperation) {
        self.seq = seq
        self.deviceId = deviceId
        self.operation = operation
    }

    public var json: JSONValue {
        var object = operation.json
        object["seq"] = .number(Double(seq))
        object["deviceId"] = .string(deviceId)
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
        return LoggedOperation(seq: try fields.integer("seq"), deviceId: try fields.text("deviceId"), operation: operation)
    }
}
