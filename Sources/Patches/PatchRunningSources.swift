import JSON
import SystemIO
#if canImport(PatchProtocol)
import PatchProtocol  // SignedPatch, PatchError, PatchClock and PatchTrust, where PatchProtocol holds them
#endif

/// The sources the app runs now, module by module: the patch in effect's for the modules it
/// patches, the app folder's for the others. A check sends their hashes; an offer's unchanged
/// modules and deltas are rebuilt from them.
struct PatchRunningSources {
    let appDirectory: String
    /// The patch in effect's sources, by module name.
    let patched: [String: String]

    /// The extensions of the files hashed for a check.
    static let extensions = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json"]
    /// At most this many modules are hashed (the first in path order).
    static let limit = 2000

    /// The source `name` runs, or nil when the app has no such module.
    func source(_ name: String) -> String? {
        if let source = patched[name] { return source }
        let path = appDirectory + "/" + name
        guard FileSystem.kind(of: path) == .file else { return nil }
        return try? FileSystem.text(atPath: path)
    }

    /// SHA-256 (hex) of every module's running source: the app folder's module files, without
    /// `node_modules` and dot folders, and the patched ones.
    func hashes() -> [String: String] {
        var names = Set(patched.keys)
        var folders = [""]
        while let folder = folders.popLast(), names.count < Self.limit {
            let path = folder.isEmpty ? appDirectory : appDirectory + "/" + folder
            for entry in FileSystem.entries(of: path).sorted() where !entry.hasPrefix(".") {
                let name = folder.isEmpty ? entry : folder + "/" + entry
                switch FileSystem.kind(of: appDirectory + "/" + name) {
                case .directory where !FileTreeWatcher.skips(folder: entry): folders.append(name)
                case .file where Self.extensions.contains(where: { entry.hasSuffix($0) }) && entry != "app.json": names.insert(name)
                default: break
                }
            }
        }
        var hashes: [String: String] = [:]
        for name in names { if let source = source(name) { hashes[name] = SignedPatch.sha256(source) } }
        return hashes
    }

    /// The signed patch an offer stands for: each module's `source` as sent, or rebuilt (`unchanged`:
    /// the source running now; `delta`: applied to the source running now, which must be the one
    /// it names). Whether each rebuilt source is the signed one is the verifier's to check.
    func rebuild(_ offer: JSONValue, file: String) throws(PatchError) -> SignedPatch {
        guard case .object(var root) = offer, case .object(let modules)? = root["modules"] else {
            throw PatchError(.malformed, "\(file): patch: expected a patch object with modules")
        }
        var rebuilt = JSONObject()
        for (name, value) in modules {
            guard case .object(var module) = value else {
                throw PatchError(.malformed, "\(file): patch.modules.\(name): expected an object")
            }
            if module["source"] == nil {
                try PatchManifest.checkModuleName(name)
                guard let running = source(name) else {
                    throw PatchError(.unknownModule, "\(file): patch.modules.\(name): sent as a change of a module this app does not have")
                }
                if module["unchanged"]?.boolValue == true {
                    module["source"] = .string(running)
                } else if case .object(let delta)? = module["delta"] {
                    module["source"] = .string(try Self.applyDelta(delta, to: running, at: "\(file): patch.modules.\(name).delta"))
                } else {
                    throw PatchError(.malformed, "\(file): patch.modules.\(name): expected source, \"unchanged\": true or a delta")
                }
            }
            module["unchanged"] = nil
            module["delta"] = nil
            rebuilt.appendUnique(name, .object(module))
        }
        root["modules"] = .object(rebuilt)
        return try SignedPatch(json: .object(root), file: file)
    }

    static func applyDelta(_ delta: JSONObject, to running: String, at place: String) throws(PatchError) -> String {
        guard delta["format"]?.stringValue == "zstd-prefix" else {
            throw PatchError(.malformed, "\(place).format: expected \"zstd-prefix\"")
        }
        guard let from = delta["from"]?.stringValue, from == SignedPatch.sha256(running) else {
            throw PatchError(.badHash, "\(place).from: the delta is against a source this device does not run")
        }
        guard let text = delta["data"]?.stringValue, let data = Base64.decode(text) else {
            throw PatchError(.malformed, "\(place).data: expected base64")
        }
        return String(decoding: try PatchDeltaCodec.apply(from: Array(running.utf8), delta: data, at: place), as: UTF8.self)
    }
}
