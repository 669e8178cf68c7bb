import HostTesting
import ScriptSources
import SystemIO

/// A scratch app for one test: files written from a table, requests resolved from one of them,
/// answers given relative to the folder so that tables read without temporary paths.
struct AppFolder {
    private let folder = TemporaryFolder(prefix: "resolver-tests")
    /// The folder's real path (`$TMPDIR` may be a link), which resolved paths start with.
    let root: String
    let resolver: ModuleResolver

    /// `globalFolders` (relative to the folder) stand for `NODE_PATH`; the tests never read the
    /// machine's own.
    init(_ files: [String: String] = [:], globalFolders: [String] = []) throws {
        root = FileSystem.realPath(folder.path) ?? folder.path
        resolver = ModuleResolver(globalFolders: globalFolders.map { [root] in root + "/" + $0 })
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws { try folder.write(path, text) }

    /// `request` resolved from `parent` (relative to the folder), the answer relative to it too.
    func resolve(_ request: String, from parent: String = "main.js", kind: ModuleRequestKind = .require) throws(ModuleResolutionError) -> String {
        let request = request.replacing("$ROOT", with: root)
        let path = try resolver.resolve(request, from: root + "/" + parent, kind: kind).path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// The error resolving `request` throws; nil if it resolves.
    func error(_ request: String, from parent: String = "main.js", kind: ModuleRequestKind = .require) -> ModuleResolutionError? {
        do {
            _ = try resolve(request, from: parent, kind: kind)
            return nil
        } catch {
            return error
        }
    }

    func remove() { folder.remove() }
}
