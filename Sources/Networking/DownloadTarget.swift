import Bridge
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// Where a download may write: a relative path inside the app's data folder, reached through real
/// folders only, and outside the host's own entries (``HostEntries``: the patch ledger, the
/// patches drop folder, database files, hidden entries). `..` that climbs out, absolute paths and
/// symbolic links anywhere on the way are refused, so a script cannot write outside its own data;
/// the host's entries are refused by name (as a case-insensitive file system compares names) and
/// by identity (an existing entry reached under another name, such as a bind mount), so a script
/// cannot rewrite the state the host keeps about it, such as the patch ledger.
struct DownloadTarget {
    /// The final file.
    let path: String
    /// The data-dir-relative path, normalised, as JS gets it back.
    let relative: String
    let folder: String

    init(_ requested: String, dataDirectory: String, hostEntries: HostEntries) throws(BridgeError) {
        guard !requested.isEmpty else { throw BridgeError.badParams("/path", "expected a file path inside the app's data folder, got an empty string") }
        guard !requested.hasPrefix("/") else {
            throw BridgeError.badParams("/path", "\"\(requested)\" is absolute; expected a path relative to the app's data folder")
        }
        guard !requested.contains("\0") else { throw BridgeError.badParams("/path", "the path contains a NUL character") }
        var parts: [Substring] = []
        for part in requested.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else {
                    throw BridgeError.badParams("/path", "\"\(requested)\" leaves the app's data folder; downloads stay inside it")
                }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        guard let name = parts.last, !requested.hasSuffix("/"), !requested.hasSuffix("/."), !requested.hasSuffix("/..") else { throw BridgeError.badParams("/path", "\"\(requested)\" names a folder, not a file") }
        let relative = parts.joined(separator: "/")
        // By name first, before any folder is made, so that no folder of the host's is created.
        if let what = hostEntries.owner(of: parts[0]) { throw Self.refusal(requested, writesInto: parts[0], what, hostEntries) }
        let root = FileIdentity(path: dataDirectory, following: true)
        // Listed once, and only when the path reaches something that exists.
        var listed: [FileIdentity: (name: String, what: String)]?
        func reserved(_ identity: FileIdentity) -> (name: String, what: String)? {
            if listed == nil { listed = FileIdentity.hostEntries(hostEntries, in: dataDirectory) }
            return listed?[identity]
        }
        var folder = dataDirectory
        for (index, part) in parts.dropLast().enumerated() {
            folder += "/" + part
            var info = stat()
            if lstat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw BridgeError.badParams("/path", "\"\(relative)\": \(part) is not a folder (symbolic links are not followed)")
                }
            } else if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw BridgeError.failed(reason: "io", "cannot create \(folder): \(String(cString: strerror(errno)))")
            } else if lstat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
                throw BridgeError.failed(reason: "io", "cannot create \(folder): it is not a folder once made")
            }
            let identity = FileIdentity(info)
            if let entry = reserved(identity) {
                throw Self.refusal(requested, alias: parts[...index].joined(separator: "/"), of: entry, hostEntries)
            }
            // A folder that is the data folder itself (a bind mount of it): what is in it is checked by name too.
            let next = parts[index + 1]
            if identity == root, let what = hostEntries.owner(of: next) { throw Self.refusal(requested, writesInto: next, what, hostEntries) }
        }
        let path = folder + "/" + name
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw BridgeError.badParams("/path", "\"\(relative)\" exists and is not a plain file")
            }
            if let entry = reserved(FileIdentity(info)) { throw Self.refusal(requested, alias: relative, of: entry, hostEntries) }
        }
        self.path = path
        self.folder = folder
        self.relative = relative
    }

    /// `E_BAD_PARAMS` at /path for a path into the host's entry `entry`.
    private static func refusal(_ requested: String, writesInto entry: Substring, _ what: String, _ entries: HostEntries) -> BridgeError {
        BridgeError.badParams("/path", "\"\(requested)\" writes into \(entry), \(what); \(rule(requested, entries))")
    }

    /// `E_BAD_PARAMS` at /path for a path that reaches a host's entry under another name.
    private static func refusal(_ requested: String, alias: String, of entry: (name: String, what: String), _ entries: HostEntries) -> BridgeError {
        BridgeError.badParams("/path", "\"\(requested)\": \(alias) is \(entry.name), \(entry.what), under another name; \(rule(requested, entries))")
    }

    private static func rule(_ requested: String, _ entries: HostEntries) -> String {
        let name = requested.split(separator: "/").last.map(String.init) ?? "file"
        return "downloads may not write into the host's own entries of the data folder (\(entries.summary)); expected a path outside them, such as \"media/\(name)\""
    }
}
