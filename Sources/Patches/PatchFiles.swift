import Engine
import Glibc

/// The few file operations the ledger and the drop folder need, with errors as ``PatchError``.
enum PatchFiles {
    /// Writes through a temporary file and a rename, so a crash leaves the old file or the new one;
    /// `durable` syncs it to disk first.
    static func write(_ text: String, to path: String, durable: Bool = true) throws(PatchError) {
        let temporary = path + ".tmp-\(getpid())"
        guard let file = fopen(temporary, "w") else { throw failure(temporary) }
        var text = text
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        let flushed = fflush(file) == 0 && (!durable || fsync(fileno(file)) == 0)
        let closed = fclose(file)
        guard written == text.utf8.count, flushed, closed == 0, rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
    }

    static func read(_ path: String) throws(PatchError) -> String {
        do {
            return try FileReader.text(atPath: path)
        } catch {
            throw PatchError(.storage, "\(path): cannot read: \(error.reason)")
        }
    }

    static func createDirectory(_ path: String) throws(PatchError) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw failure(current) }
        }
    }

    static func remove(_ path: String) { unlink(path) }

    static func move(_ from: String, to: String) { rename(from, to) }

    /// Names of the entries of a folder (not "." or ".."); empty when it cannot be read.
    static func list(_ directory: String) -> [String] { FileReader.entries(of: directory) }

    /// Size and modification time, to tell when a dropped file has stopped growing.
    static func stamp(_ path: String) -> (size: Int, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
    }

    private static func failure(_ path: String) -> PatchError {
        PatchError(.storage, "\(path): \(String(cString: strerror(errno)))")
    }
}
