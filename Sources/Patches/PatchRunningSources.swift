import JSON
import PatchProtocol
import SystemIO

/// The sources the app runs now, module by module: the patch in effect's for the modules it
/// patches, the app folder's for the others. A check sends their hashes; an offer's unchanged
/// modules and deltas are rebuilt from them (PatchProtocol's `PatchOffer.rebuild`).
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
}
