import Crypto
import JSON

/// A patch file: the manifest's fields, each module's source beside its hash, the signer's public
/// key and the Ed25519 signature over the canonical manifest (base64).
///
/// ```json
/// {"app": "demo", "patchVersion": 2, "baseVersion": "1.0.0",
///  "modules": {"report.js": {"mode": "amend", "sha256": "9f…", "source": "exports.line = …"}},
///  "key": "<public key, base64>", "signature": "<base64>"}
/// ```
public struct SignedPatch: Sendable, Equatable {
    public var manifest: PatchManifest
    /// Module sources by name, as the manifest lists them.
    public var sources: [String: String]
    public var key: String
    public var signature: String

    public init(manifest: PatchManifest, sources: [String: String], key: String, signature: String) {
        self.manifest = manifest
        self.sources = sources
        self.key = key
        self.signature = signature
    }

    /// Reads a patch file's text; `file` names it in messages.
    public static func parse(_ text: String, file: String = "patch") throws(PatchError) -> SignedPatch {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw PatchError(.malformed, "\(file): not JSON: \(error)")
        }
        return try SignedPatch(json: json, file: file)
    }

    public init(json: JSONValue, file: String = "patch") throws(PatchError) {
        let fields = try PatchFields(json: json, file: file)
        guard let key = fields.root["key"]?.stringValue, let signature = fields.root["signature"]?.stringValue else {
            throw PatchError(.malformed, "\(file): key and signature: expected base64 strings; sign the patch with `hybrid patch sign`")
        }
        var modules: [String: PatchManifest.Module] = [:]
        var sources: [String: String] = [:]
        for (name, entry) in fields.modules {
            guard let mode = entry.mode else {
                throw PatchError(.malformed, "\(file): modules.\(name).mode: expected \"amend\" or \"replace\"")
            }
            guard let source = entry.object["source"]?.stringValue, let sha = entry.object["sha256"]?.stringValue else {
                throw PatchError(.malformed, "\(file): modules.\(name): expected source and sha256 strings")
            }
            modules[name] = PatchManifest.Module(mode: mode, sha256: sha)
            sources[name] = source
        }
        self.init(manifest: PatchManifest(app: fields.app, patchVersion: fields.patchVersion, baseVersion: fields.baseVersion,
                                          expires: fields.expires, modules: modules),
                  sources: sources, key: key, signature: signature)
    }

    public var jsonValue: JSONValue {
        var root = manifest.jsonValue.objectValue ?? [:]
        var modules = JSONObject()
        for (name, module) in manifest.modules.sorted(by: { $0.key < $1.key }) {
            modules.appendUnique(name, ["mode": .string(module.mode.rawValue), "sha256": .string(module.sha256),
                                        "source": .string(sources[name] ?? "")])
        }
        var out = JSONObject()
        for member in root where member.key != "modules" { out.appendUnique(member.key, member.value) }
        root = out
        root.appendUnique("modules", .object(modules))
        root.appendUnique("key", .string(key))
        root.appendUnique("signature", .string(signature))
        return .object(root)
    }

    /// The file's text, pretty-printed.
    public var text: String { JSONWriter.write(jsonValue, options: .init(pretty: true)) + "\n" }

    /// Signs `manifest` with a base64 Ed25519 private key (its 32-byte seed).
    public static func sign(_ manifest: PatchManifest, sources: [String: String], privateKey: String) throws(PatchError) -> SignedPatch {
        let key = try signingKey(privateKey)
        let signature: [UInt8]
        do {
            signature = Array(try key.signature(for: manifest.canonicalBytes))
        } catch {
            throw PatchError(.badSignature, "signing failed: \(error)")
        }
        return SignedPatch(manifest: manifest, sources: sources, key: Base64.encode(Array(key.publicKey.rawRepresentation)),
                           signature: Base64.encode(signature))
    }

    /// A private key as `hybrid patch keygen` writes it: 32 bytes in base64 (the first word of the text).
    public static func signingKey(_ text: String) throws(PatchError) -> Curve25519.Signing.PrivateKey {
        let trimmed = text.split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\r" }).first.map(String.init) ?? ""
        guard let bytes = Base64.decode(trimmed), bytes.count == 32,
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes) else {
            throw PatchError(.malformed, "private key: expected 32 bytes in base64, as `hybrid patch keygen` writes")
        }
        return key
    }

    /// Lowercase hex SHA-256 of the UTF-8 bytes of `source`.
    public static func sha256(_ source: String) -> String {
        SHA256.hash(data: Array(source.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// The fields a signed and an unsigned patch share, checked.
public struct PatchFields {
    public struct Entry {
        public var mode: PatchManifest.Mode?
        public var object: JSONObject
    }

    public var root: JSONObject
    public var app: String
    public var patchVersion: Int
    public var baseVersion: String
    public var expires: String?
    public var modules: [(String, Entry)]

    public init(json: JSONValue, file: String) throws(PatchError) {
        guard case .object(let root) = json else { throw PatchError(.malformed, "\(file): expected an object") }
        self.root = root
        guard let app = root["app"]?.stringValue, !app.isEmpty else {
            throw PatchError(.malformed, "\(file): app: expected the app's name (app.json name)")
        }
        guard let version = root["patchVersion"]?.intValue, version > 0 else {
            throw PatchError(.malformed, "\(file): patchVersion: expected a positive integer")
        }
        guard let base = root["baseVersion"]?.stringValue, !base.isEmpty else {
            throw PatchError(.malformed, "\(file): baseVersion: expected the app version the patch was made for (app.json version)")
        }
        var expires: String?
        if let value = root["expires"] {
            guard let text = value.stringValue, PatchClock.parse(text) != nil else {
                throw PatchError(.malformed, "\(file): expires: expected an ISO 8601 UTC time such as \"2027-01-31T00:00:00Z\"")
            }
            expires = text
        }
        guard case .object(let modules)? = root["modules"], !modules.isEmpty else {
            throw PatchError(.malformed, "\(file): modules: expected an object with at least one module")
        }
        var entries: [(String, Entry)] = []
        for (name, value) in modules {
            try PatchManifest.checkModuleName(name)
            guard case .object(let object) = value else {
                throw PatchError(.malformed, "\(file): modules.\(name): expected an object {mode, source}")
            }
            entries.append((name, Entry(mode: object["mode"]?.stringValue.flatMap(PatchManifest.Mode.init(rawValue:)), object: object)))
        }
        self.app = app
        self.patchVersion = version
        self.baseVersion = base
        self.expires = expires
        self.modules = entries
    }
}
