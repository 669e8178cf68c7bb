import JSON

/// What a device asks the patch server (`POST /v1/apps/{app}/check`): which patch it runs, the
/// highest it has seen, those it rolled back, and the SHA-256 of each module's source it runs now
/// (so that the offer can leave unchanged modules out and send deltas for the others).
public struct PatchCheck: Sendable, Equatable {
    public var baseVersion: String
    public var channel: String
    public var deviceId: String
    /// The patch running, if any.
    public var patchVersion: Int?
    public var highestVersion: Int
    public var rolledBack: [Int]
    /// Module name -> lowercase hex SHA-256 of the source the device runs now.
    public var modules: [String: String]

    public init(baseVersion: String, channel: String, deviceId: String, patchVersion: Int? = nil, highestVersion: Int = 0,
                rolledBack: [Int] = [], modules: [String: String] = [:]) {
        self.baseVersion = baseVersion
        self.channel = channel
        self.deviceId = deviceId
        self.patchVersion = patchVersion
        self.highestVersion = highestVersion
        self.rolledBack = rolledBack
        self.modules = modules
    }

    public init(json: JSONValue) throws(PatchError) {
        let fields = try PatchWireFields(json, label: "check")
        var rolledBack: [Int] = []
        if let value = fields.object["rolledBack"], !value.isNull {
            guard let items = value.arrayValue else { throw PatchError(.malformed, "check.rolledBack: expected an array of patch versions") }
            for item in items {
                guard let version = item.intValue, version > 0 else { throw PatchError(.malformed, "check.rolledBack: expected positive integers") }
                rolledBack.append(version)
            }
        }
        var modules: [String: String] = [:]
        if let value = fields.object["modules"], !value.isNull {
            guard case .object(let object) = value else { throw PatchError(.malformed, "check.modules: expected an object {NAME: SHA256}") }
            for (name, hash) in object {
                guard let text = hash.stringValue, text.utf8.count == 64, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                    throw PatchError(.malformed, "check.modules.\(name): expected the source's SHA-256 as 64 lowercase hex digits")
                }
                modules[name] = text
            }
        }
        self.init(baseVersion: try fields.required("baseVersion"), channel: try fields.required("channel"),
                  deviceId: try fields.required("deviceId"), patchVersion: try fields.version("patchVersion", optional: true),
                  highestVersion: try fields.version("highestVersion", optional: true) ?? 0, rolledBack: rolledBack, modules: modules)
    }

    public var jsonValue: JSONValue {
        var modules = JSONObject()
        for (name, hash) in self.modules.sorted(by: { $0.key < $1.key }) { modules.appendUnique(name, .string(hash)) }
        return ["baseVersion": .string(baseVersion), "channel": .string(channel), "deviceId": .string(deviceId),
                "patchVersion": patchVersion.map { JSONValue.number(Double($0)) } ?? JSONValue.null, "highestVersion": .number(Double(highestVersion)),
                "rolledBack": .array(rolledBack.map { .number(Double($0)) }), "modules": .object(modules)]
    }
}

/// A device's report on a patch (`POST /v1/apps/{app}/reports`).
public struct PatchReport: Sendable, Equatable {
    public enum Event: String, Sendable, CaseIterable {
        case downloaded, applied, confirmed, rolledBack
    }

    public var patchVersion: Int
    public var event: Event
    public var reason: String?

    public init(patchVersion: Int, event: Event, reason: String? = nil) {
        self.patchVersion = patchVersion
        self.event = event
        self.reason = reason
    }

    public init(json: JSONValue) throws(PatchError) {
        let fields = try PatchWireFields(json, label: "report")
        guard let version = try fields.version("patchVersion"), version > 0 else {
            throw PatchError(.malformed, "report.patchVersion: expected a positive integer")
        }
        guard let event = fields.object["event"]?.stringValue.flatMap(Event.init(rawValue:)) else {
            throw PatchError(.malformed, "report.event: expected one of \(Event.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        self.init(patchVersion: version, event: event, reason: try fields.string("reason", optional: true))
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = ["patchVersion": .number(Double(patchVersion)), "event": .string(event.rawValue)]
        if let reason { object.appendUnique("reason", .string(reason)) }
        return .object(object)
    }
}
