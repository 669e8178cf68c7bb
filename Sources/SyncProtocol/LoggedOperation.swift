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
}
