import Glibc

/// Small files read and written straight through the C library.
///
/// Everything the device service reads is a few hundred bytes in `/proc`, `/sys` or `/etc`, where
/// files report a size of 0 and must be read to the end; Foundation would add nothing here but
/// start-up cost.
enum SystemFile {
    /// The whole file as UTF-8 text (invalid bytes repaired).
    static func read(_ path: String) throws(SystemFileError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemFileError(path: path, code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw SystemFileError(path: path, code: errno)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's text, or nil when it does not exist; any other failure throws.
    static func readIfPresent(_ path: String) throws(SystemFileError) -> String? {
        do {
            return try read(path)
        } catch where error.isMissing {
            return nil
        }
    }

    /// The file's text with surrounding white space removed, or nil on any failure: for sysfs
    /// attributes, which a driver may refuse to read (`EIO`, `ENODEV`) when a device is absent.
    static func attribute(_ path: String) -> String? {
        guard let text = try? read(path) else { return nil }
        return text.trimmingWhiteSpace()
    }

    /// Where a symbolic link points, as written in the link; nil if `path` is not a link.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { raw in
            readlink(path, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The names in a folder, sorted, without `.` and `..`; nil if it cannot be opened.
    static func directoryEntries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Creates `path` (which must not exist yet), writes `text` and flushes it to disk.
    static func createNew(_ path: String, text: String, mode: mode_t = 0o644) throws(SystemFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemFileError(path: path, code: errno) }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written >= 0 {
                bytes = bytes.dropFirst(written)
            } else if errno != EINTR {
                throw SystemFileError(path: path, code: errno)
            }
        }
        guard fsync(fd) == 0 else { throw SystemFileError(path: path, code: errno) }
    }

    /// Creates the folder unless it exists already.
    static func makeDirectory(_ path: String) throws(SystemFileError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw SystemFileError(path: path, code: errno) }
    }
}
