import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: the file itself, whatever name reaches it.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Nil when `path` does not exist.
    init?(path: String, following: Bool) {
        var info = stat()
        guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        self.init(info)
    }

    /// The host's entries that exist at the top of `dataDirectory`, by identity, with their names and what they are.
    static func hostEntries(_ entries: HostEntries, in dataDirectory: String) -> [FileIdentity: (name: String, what: String)] {
        var found: [FileIdentity: (name: String, what: String)] = [:]
        for name in FileSystem.entries(of: dataDirectory) {
            guard let what = entries.owner(of: name), let identity = FileIdentity(path: dataDirectory + "/" + name, following: false) else { continue }
            found[identity] = (name, what)
        }
        return found
    }
}
