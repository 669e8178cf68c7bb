import JSON

/// What a patch's signature covers: `{app, patchVersion, baseVersion, expires?, modules: {NAME:
/// {mode, sha256}}}`, written canonically (keys sorted by UTF-16 code units, no whitespace). The
/// sources are bound to it through their hashes.
public struct PatchManifest: Sendable, Equatable {
    public enum Mode: String, Sendable {
        /// Named functions set on the live module's exports object.
        case amend
        /// The module re-evaluated, handing state over through `module.hot`.
        case replace
    }

    public struct Module: Sendable, Equatable {
        public var mode: Mode
        /// Lowercase hex SHA-256 of the source's UTF-8 bytes.
        public var sha256: String

        public init(mode: Mode, sha256: String) {
            self.mode = mode
            self.sha256 = sha256
        }
    }

    public var app: String
    /// A positive integer, greater than every version the app has seen.
    public var patchVersion: Int
    /// The app version (app.json `version`) the patch was made for.
    public var baseVersion: String
    /// ISO 8601 UTC time (`2027-01-31T00:00:00Z`) after which the patch is refused.
    public var expires: String?
    /// Module paths relative to the app folder ("report.js", "lib/cart.js").
    public var modules: [String: Module]

    public init(app: String, patchVersion: Int, baseVersion: String, expires: String? = nil, modules: [String: Module]) {
        self.app = app
        self.patchVersion = patchVersion
        self.baseVersion = baseVersion
        self.expires = expires
        self.modules = modules
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "app": .string(app),
            "patchVersion": .number(Double(patchVersion)),
            "baseVersion": .string(baseVersion),
        ]
        if let expires { object.appendUnique("expires", .string(expires)) }
        var modules = JSONObject()
        for (name, module) in self.modules.sorted(by: { $0.key < $1.key }) {
            modules.appendUnique(name, ["mode": .string(module.mode.rawValue), "sha256": .string(module.sha256)])
        }
        object.appendUnique("modules", .object(modules))
        return .object(object)
    }

    /// The bytes signed and verified.
    public var canonicalBytes: [UInt8] {
        Array(JSONWriter.write(jsonValue, options: .init(sortedKeys: true)).utf8)
    }

    /// Checks a module name: a relative path inside the app folder.
    public static func checkModuleName(_ name: String) throws(PatchError) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw PatchError(.malformed, "modules: \"\(name)\": expected a path relative to the app folder, such as \"report.js\"")
        }
    }
}
