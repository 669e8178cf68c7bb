import JSON

/// app.json `patches`: the patch server the app asks for patches, its channel and how often.
///
/// ```json
/// "patches": {"server": "https://patches.example.com", "channel": "production", "checkEvery": 3600}
/// "patches": {"server": "https://patches.example.com", "autoCheck": false}   // only patch.check {} checks
/// ```
public struct PatchServerSettings: Sendable, Equatable {
    /// The server's base URL (without `/v1`); its host needs a `network:HOST` grant.
    public var server: String
    public var channel: String
    /// Seconds between two checks.
    public var checkEvery: Double
    /// Whether the loader checks by itself, at start and every `checkEvery`; when false only
    /// `patch.check {}` does, at the moments the app chooses (Capgo's `autoUpdate: false`,
    /// expo-updates' `checkAutomatically: "NEVER"`).
    public var autoCheck = true

    public static let defaultChannel = "production"
    public static let defaultCheckEvery = 3600.0
    /// The shortest `checkEvery` accepted.
    public static let shortestCheckEvery = 0.1

    public init(server: String, channel: String = PatchServerSettings.defaultChannel, checkEvery: Double = PatchServerSettings.defaultCheckEvery) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.channel = channel
        self.checkEvery = checkEvery
    }

    /// Reads app.json's `patches` (nil when absent); `source` names it in errors
    /// ("app/app.json: patches"). `patchKeys`: a server needs keys to check what it sends.
    public static func parse(_ value: JSONValue?, source: String, patchKeys: [String]) throws(PatchSettingsError) -> PatchServerSettings? {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            throw PatchSettingsError("\(source): expected an object such as {\"server\": \"https://patches.example.com\", \"channel\": \"production\", \"checkEvery\": 3600}, got \(value.typeName)")
        }
        let known = ["server", "channel", "checkEvery", "autoCheck"]
        for (key, _) in object where !known.contains(key) {
            throw PatchSettingsError("\(source).\(key): unknown key; expected one of \(known.joined(separator: ", "))")
        }
        guard case .string(let server)? = object["server"] else {
            throw PatchSettingsError("\(source).server: expected the patch server's URL, such as \"https://patches.example.com\"")
        }
        try checkServer(server, source: "\(source).server")
        var channel = defaultChannel
        if let value = object["channel"] {
            guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= 64,
                  text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw PatchSettingsError("\(source).channel: expected a name of 1 to 64 letters, digits, \"-\", \"_\" or \".\", such as \"production\"")
            }
            channel = text
        }
        var checkEvery = defaultCheckEvery
        if let value = object["checkEvery"] {
            guard case .number(let seconds) = value, seconds.isFinite, seconds >= shortestCheckEvery else {
                throw PatchSettingsError("\(source).checkEvery: expected seconds between two checks, a number of at least \(shortestCheckEvery), such as 3600")
            }
            checkEvery = seconds
        }
        var autoCheck = true
        if let value = object["autoCheck"] {
            guard case .bool(let flag) = value else {
                throw PatchSettingsError("\(source).autoCheck: expected true (check at start and every checkEvery) or false (only when the app calls patch.check)")
            }
            autoCheck = flag
        }
        guard !patchKeys.isEmpty else {
            throw PatchSettingsError("\(source): a patch server needs app.json patchKeys, the public keys its patches are signed with")
        }
        var settings = PatchServerSettings(server: server, channel: channel, checkEvery: checkEvery)
        settings.autoCheck = autoCheck
        return settings
    }

    /// app.json's `patches` with its server replaced by `server` (`hybrid run --patch-server`, a
    /// staging server or one on this machine), or, without `patches`, that server with the
    /// default channel and check interval. `source` names the flag in errors.
    public static func overriding(_ settings: PatchServerSettings?, server: String, source: String, patchKeys: [String]) throws(PatchSettingsError) -> PatchServerSettings {
        try checkServer(server, source: source)
        guard !patchKeys.isEmpty else {
            throw PatchSettingsError("\(source): a patch server needs app.json patchKeys, the public keys its patches are signed with")
        }
        guard var settings else { return PatchServerSettings(server: server) }
        settings.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        return settings
    }

    /// Refuses a server URL that is not http or https with a host and no query.
    static func checkServer(_ server: String, source: String) throws(PatchSettingsError) {
        let lower = server.lowercased()
        let scheme = lower.hasPrefix("https://") ? "https://" : lower.hasPrefix("http://") ? "http://" : nil
        guard let scheme, server.count > scheme.count, !server.dropFirst(scheme.count).hasPrefix("/"),
              !server.contains("?"), !server.contains("#"), !server.contains(where: \.isWhitespace) else {
            throw PatchSettingsError("\(source): expected an http or https URL with a host and no query, such as \"https://patches.example.com\", got \(JSONWriter.write(.string(server)))")
        }
    }
}

/// app.json `patches` is not what it should be: the message names the field and what was expected.
public struct PatchSettingsError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
