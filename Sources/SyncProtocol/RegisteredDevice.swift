import JSON

/// The answer to a device's registration (`POST /v1/devices`, 201): its id, and on a server without
/// auth a device token that later requests carry.
///
/// Wire form: `{"deviceId", "token"?}`.
public struct RegisteredDevice: Sendable, Equatable {
    public var deviceId: String
    public var token: String?

    public init(deviceId: String, token: String? = nil) {
        self.deviceId = deviceId
        self.token = token
    }

    public var json: JSONValue {
        guard let token else { return ["deviceId": .string(deviceId)] }
        return ["deviceId": .string(deviceId), "token": .string(token)]
    }

    public static func decode(_ body: JSONValue) throws(SyncWireError) -> RegisteredDevice {
        let fields = try FieldReader(body, at: "")
        return RegisteredDevice(deviceId: try fields.string("deviceId"), token: try fields.optionalText("token"))
    }
}
