import Crypto
import Foundation
import JSON
import PatchProtocol
import ScriptSources

/// Makes keys and signs patches (`hybrid patch keygen | sign`).
///
/// ```swift
/// let key = PatchSigner.generateKey()            // keep `key.privateKey` secret
/// // app.json: "patchKeys": [key.publicKey]
/// let patch = try PatchSigner.sign(unsigned, privateKey: key.privateKey)
/// ```
public enum PatchSigner {
    /// A new Ed25519 key pair, both halves base64 (the private half is its 32-byte seed).
    public static func generateKey() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (Base64.encode(Array(key.rawRepresentation)), Base64.encode(Array(key.publicKey.rawRepresentation)))
    }

    /// The public half of a private key (base64).
    public static func publicKey(of privateKey: String) throws(PatchError) -> String {
        Base64.encode(Array(try signingKey(privateKey).publicKey.rawRepresentation))
    }

    /// Signs an unsigned patch: `{app, patchVersion, baseVersion, expires?, modules: {NAME: {mode,
    /// source}}}`. `readSource` supplies a module's text when it names a `file` instead.
    ///
    /// A TypeScript or ES module (by NAME's extension, or `import`/`export` in a `.js`) is signed
    /// as it will run: transformed here by `transformer` into the host's CommonJS shape, with its
    /// source map inline, so that devices need no transformer and stack traces still name the
    /// `.ts` lines. The hash covers both.
    public static func sign(_ json: JSONValue, privateKey: String, file: String = "patch",
                            transformer: ModuleTransformer = ModuleTransformer(),
                            readSource: (String) throws -> String = { _ in throw PatchError(.malformed, "no file access") }) throws(PatchError) -> SignedPatch {
        let fields = try PatchFields(json: json, file: file)
        var modules: [String: PatchManifest.Module] = [:]
        var sources: [String: String] = [:]
        for (name, entry) in fields.modules {
            guard let mode = entry.mode else {
                throw PatchError(.malformed, "\(file): modules.\(name).mode: expected \"amend\" or \"replace\"")
            }
            let source: String
            if let text = entry.object["source"]?.stringValue {
                source = text
            } else if let path = entry.object["file"]?.stringValue {
                do {
                    source = try readSource(path)
                } catch {
                    throw PatchError(.malformed, "\(file): modules.\(name).file: cannot read \(path): \(error)")
                }
            } else {
                throw PatchError(.malformed, "\(file): modules.\(name): expected source (the module's text) or file (a path)")
            }
            let runnable = try runnableSource(source, name: name, file: file, transformer: transformer)
            modules[name] = PatchManifest.Module(mode: mode, sha256: SignedPatch.sha256(runnable))
            sources[name] = runnable
        }
        let manifest = PatchManifest(app: fields.app, patchVersion: fields.patchVersion, baseVersion: fields.baseVersion,
                                     expires: fields.expires, modules: modules)
        return try sign(manifest, sources: sources, privateKey: privateKey)
    }

    public static func sign(_ manifest: PatchManifest, sources: [String: String], privateKey: String) throws(PatchError) -> SignedPatch {
        try SignedPatch.sign(manifest, sources: sources, privateKey: privateKey)
    }

    /// What a device will compile for a module: CommonJS JavaScript as it is; TypeScript and ES
    /// modules transformed, with a `//# sourceMappingURL=data:` comment carrying the map.
    static func runnableSource(_ source: String, name: String, file: String, transformer: ModuleTransformer) throws(PatchError) -> String {
        let format: ModuleFormat
        if name.hasSuffix(".cjs") || name.hasSuffix(".cts") {
            format = .commonJS
        } else if name.hasSuffix(".mjs") || name.hasSuffix(".mts") || SourceLanguage(filename: name) == .typeScript
                    || ModuleFormat.hasModuleSyntax(source) {
            format = .module
        } else {
            format = .commonJS
        }
        guard ModuleTransformer.needsTransform(path: name, format: format) else { return source }
        let compiled: CompiledSource
        do {
            compiled = try transformer.compile(path: name, source: source, format: format)
        } catch {
            throw PatchError(.syntax, "\(file): modules.\(name): \(error)")
        }
        if compiled.topLevelAwait {
            throw PatchError(.malformed, "\(file): modules.\(name): awaits at top level; a patched module must evaluate synchronously (move the await into a function)")
        }
        guard let map = compiled.sourceMapText() else { return compiled.code }
        return compiled.code + "//# sourceMappingURL=data:application/json;base64," + Data(map.utf8).base64EncodedString() + "\n"
    }

    static func signingKey(_ text: String) throws(PatchError) -> Curve25519.Signing.PrivateKey {
        try SignedPatch.signingKey(text)
    }
}
