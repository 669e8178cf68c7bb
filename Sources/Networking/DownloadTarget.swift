import Bridge
#if canImport(Glibc)
import Glibc
#endif

/// Where a download may write: a relative path inside the app's data folder, reached through real
/// folders only. `..` that climbs out, absolute paths and symbolic links anywhere on the way are
/// refused, so a script cannot write outside its own data.
struct DownloadTarget {
    /// The final file.
    let path: String
    /// The data-dir-relative path, normalised, as JS gets it back.
    let relative: String
    let folder: String

    init(_ requested: String, dataDirectory: String) throws(BridgeError) {
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
        var folder = dataDirectory
        for part in parts.dropLast() {
            folder += "/" + part
            var info = stat()
            if lstat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw BridgeError.badParams("/path", "\"\(parts.joined(separator: "/"))\": \(part) is not a folder (symbolic links are not followed)")
                }
            } else if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw BridgeError.failed(reason: "io", "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        }
        let path = folder + "/" + name
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw BridgeError.badParams("/path", "\"\(parts.joined(separator: "/"))\" exists and is not a plain file")
        }
        self.path = path
        self.folder = folder
        self.relative = parts.joined(separator: "/")
    }
}
