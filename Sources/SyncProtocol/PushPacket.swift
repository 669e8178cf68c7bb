import JSON

/// One push: a device's ops, applied together or not at all, after the packet they depend on.
///
/// Wire form: `{"deviceId", "packetId", "dependencyIdentifier": string|null, "ops": [op]}`.
public struct PushPacket: Sendable, Equatable {
    /// The most ops one packet may carry; more is refused with 413 so one request cannot hold the
    /// write lock for long.
    public static let maximumOperations = 10_000

    public var deviceId: String
    /// Unique per device; a packet pushed twice is answered, not applied, the second time.
    public var packetId: String
    /// The packetId of the same device's previous packet, or nil for a device's first (or an
    /// independent) packet. Until that packet is applied this one is held.
    public var dependencyIdentifier: String?
    public var ops: [SyncOperation]

    public init(deviceId: String, packetId: String, dependencyIdentifier: String?, ops: [SyncOperation]) {
        self.deviceId = deviceId
        self.packetId = packetId
        self.dependencyIdentifier = dependencyIdentifier
        self.ops = ops
    }

    /// The wire form, as a client sends it.
    public var json: JSONValue {
        ["deviceId": .string(deviceId), "packetId": .string(packetId), "dependencyIdentifier": dependencyIdentifier.map(JSONValue.string) ?? .null,
         "ops": .array(ops.map { .object($0.json) })]
    }

    /// Reads a push body, refusing it whole with a ``SyncWireError`` at the first field at fault: a
    /// field that does not read, a packet depending on itself, or one of too many ops (`tooLarge`).
    public static func decode(_ body: JSONValue) throws -> PushPacket {
        let fields = try FieldReader(body, at: "")
        let deviceId = try fields.string("deviceId")
        let packetId = try fields.string("packetId")
        let dependency = try fields.optionalString("dependencyIdentifier")
        if dependency == packetId {
            throw SyncWireError.invalid(fields.path("dependencyIdentifier"), "a packet cannot depend on itself")
        }
        let elements = try fields.array("ops")
        guard elements.count <= maximumOperations else {
            throw SyncWireError("ops: \(elements.count) ops in one packet, at most \(maximumOperations) allowed",
                                path: fields.path("ops"), tooLarge: true)
        }
        var ops: [SyncOperation] = []
        ops.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            ops.append(try SyncOperation.decode(element, at: JSONPointer.appending(fields.path("ops"), index: index)))
        }
        return PushPacket(deviceId: deviceId, packetId: packetId, dependencyIdentifier: dependency, ops: ops)
    }
}
