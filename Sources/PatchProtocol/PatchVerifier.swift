import Crypto
import JSON
import SystemIO

/// What a patch is checked against: the app it must be for and the keys it may be signed by.
public struct PatchTrust: Sendable {
    public var app: String
    /// app.json `version`: a patch's `baseVersion` must equal it.
    public var appVersion: String
    /// app.json `patchKeys`: Ed25519 public keys, base64.
    public var keys: [String]
    /// The app folder: every module a patch names must be a file in it.
    public var appDirectory: String

    public init(app: String, appVersion: String, keys: [String], appDirectory: String) {
        self.app = app
        self.appVersion = appVersion
        self.keys = keys
        self.appDirectory = appDirectory
    }
}

/// Checks a patch before anything changes, in this order: app, key, signature, hashes,
/// baseVersion, expiry, version (downgrade, replay), modules. The first failure refuses it.
public enum PatchVerifier {
    /// - Parameters:
    ///   - highestVersion: the greatest `patchVersion` the app has seen (applied, confirmed or rolled back).
    ///   - now: epoch seconds, for `expires`.
    public static func verify(_ patch: SignedPatch, trust: PatchTrust, highestVersion: Int, now: Double = PatchClock.now(),
                              checkVersion: Bool = true) throws(PatchError) {
        let manifest = patch.manifest
        let label = "patch \(manifest.patchVersion)"
        guard manifest.app == trust.app else {
            throw PatchError(.wrongApp, "\(label): app: made for \"\(manifest.app)\", this app is \"\(trust.app)\"")
        }
        let hint = trust.keys.isEmpty ? "app.json has no patchKeys" : "app.json patchKeys has \(trust.keys.count) other key(s)"
        try verifySignature(patch, keys: trust.keys, keysName: "app.json's patchKeys (\(hint))")
        guard manifest.baseVersion == trust.appVersion else {
            throw PatchError(.wrongBase, "\(label): baseVersion: made for version \(manifest.baseVersion), the app is version \(trust.appVersion)")
        }
        if let expires = manifest.expires, let deadline = PatchClock.parse(expires), deadline <= now {
            throw PatchError(.expired, "\(label): expires: expired at \(expires)")
        }
        if checkVersion, manifest.patchVersion <= highestVersion {
            throw PatchError(.stale, "\(label): patchVersion: expected more than \(highestVersion), the highest version this app has seen (a downgrade or a replay)")
        }
        for name in manifest.modules.keys.sorted() {
            let path = trust.appDirectory + "/" + name
            guard FileSystem.kind(of: path) == .file else {
                throw PatchError(.unknownModule, "\(label): modules.\(name): no such module in \(trust.appDirectory)")
            }
        }
    }

    /// The checks a server makes too: the key is one of `keys` (`keysName` says whose, in the
    /// refusal), the signature verifies over the canonical manifest, each source matches its hash.
    public static func verifySignature(_ patch: SignedPatch, keys: [String], keysName: String) throws(PatchError) {
        let manifest = patch.manifest
        let label = "patch \(manifest.patchVersion)"
        guard keys.contains(patch.key) else {
            throw PatchError(.unknownKey, "\(label): key: \(patch.key) is not one of \(keysName)")
        }
        guard let keyBytes = Base64.decode(patch.key), let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes) else {
            throw PatchError(.unknownKey, "\(label): key: expected a 32-byte Ed25519 public key in base64")
        }
        guard let signature = Base64.decode(patch.signature), publicKey.isValidSignature(signature, for: manifest.canonicalBytes) else {
            throw PatchError(.badSignature, "\(label): signature: does not verify over the manifest with the key it names")
        }
        for (name, module) in manifest.modules.sorted(by: { $0.key < $1.key }) {
            guard let source = patch.sources[name], SignedPatch.sha256(source) == module.sha256 else {
                throw PatchError(.badHash, "\(label): modules.\(name).source: its SHA-256 does not match the signed sha256 \(module.sha256)")
            }
        }
    }
}
