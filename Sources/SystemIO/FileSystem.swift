// The SystemIO module: the few operating-system services every layer needs (files, the monotonic
// clock, standard streams, the environment), straight over the C library. It knows nothing of
// JavaScript, the bridge or any service, and it never buffers what a caller asked to be durable.
import Glibc

/// Synchronous file access without Foundation: module sources, `/proc` and `/sys` files (which
/// report a size of 0 and must be read to the end), manifests, ledgers and atomic writes.
///
/// ```swift
/// let text = try FileSystem.text(atPath: "/etc/os-release")
/// try FileSystem.write("{}", to: dataDir + "/state.json")   // temporary file, then rename
/// ```
public enum FileSystem {
    public enum Kind: Sendable { case file, directory, missing }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The file's bytes, read to the end whatever size it reports.
    public static func bytes(atPath path: String) throws(FileSystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        // Read straight into the result, sized by what the file reports plus one byte, so that a
        // file that has not grown is read in one call and the next sees its end; a module load
        // reads two files (source and cached transform), and a zeroed 64 KB buffer per file was
        // measurable. The buffer grows for files that report less (`/proc`) or grow meanwhile.
        var result = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == result.count { result.append(contentsOf: repeatElement(0, count: max(result.count, 4096))) }
            let count = result.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, code: errno)
            }
            if count == 0 { break }
            filled += count
        }
        result.removeLast(result.count - filled)
        return result
    }

    /// The file as UTF-8 text (a byte-order mark dropped, invalid bytes repaired).
    public static func text(atPath path: String) throws(FileSystemError) -> String {
        var bytes = try bytes(atPath: path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's text, or nil when it does not exist; any other failure throws.
    public static func textIfPresent(atPath path: String) throws(FileSystemError) -> String? {
        do {
            return try text(atPath: path)
        } catch where error.isMissing {
            return nil
        }
    }

    /// Names of a folder's entries (not "." or ".."), sorted; nil when it cannot be opened.
    public static func entries(ifFolder directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Names of a folder's entries (not "." or ".."), sorted; empty when it cannot be read.
    public static func entries(of directory: String) -> [String] { entries(ifFolder: directory) ?? [] }

    /// Where a symbolic link points, as written in the link; nil if `path` is not a link.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { raw in
            readlink(path, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Size and modification time (ns) of a regular file: to tell when a file has stopped growing.
    public static func stamp(_ path: String) -> (size: Int, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
    }

    /// `path` made absolute against the working directory, with `.` and `..` folded.
    public static func absolute(_ path: String) -> String {
        var base = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            let cwd = getcwd(&buffer, buffer.count).map { _ in String(cString: buffer) } ?? "/"
            base = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in base.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with every symbolic link on the way followed (`realpath`); nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder part of `path`.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    // MARK: - Writing

    /// `mkdir -p`: every missing folder on the way; an existing non-folder is an error.
    public static func createDirectories(_ path: String) throws(FileSystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw FileSystemError(path: current, code: errno) }
        }
        guard kind(of: path) == .directory else { throw FileSystemError(path: path, reason: "exists and is not a folder") }
    }

    /// Writes through a temporary file beside `path` and a rename, so a crash leaves the old file
    /// or the new one, never half of either; `durable` syncs the file to disk before the rename.
    public static func write(_ text: String, to path: String, durable: Bool = false) throws(FileSystemError) {
        let temporary = path + ".tmp-\(getpid())"
        guard let file = fopen(temporary, "w") else { throw FileSystemError(path: temporary, code: errno) }
        var text = text
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        let flushed = fflush(file) == 0 && (!durable || fsync(fileno(file)) == 0)
        let closed = fclose(file)
        guard written == text.utf8.count, flushed, closed == 0, rename(temporary, path) == 0 else {
            let error = FileSystemError(path: path, code: errno)
            unlink(temporary)
            throw error
        }
    }

    /// Appends `text` to `path` (created if missing): a log of lines, each written whole at the
    /// file's end (`O_APPEND`).
    public static func append(_ text: String, to path: String) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        try writeAll(text, to: fd, path: path)
    }

    /// Creates `path`, which must not exist yet (`EEXIST` otherwise), writes `text` and syncs it.
    public static func createNew(_ path: String, text: String, mode: mode_t = 0o644) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        try writeAll(text, to: fd, path: path)
        guard fsync(fd) == 0 else { throw FileSystemError(path: path, code: errno) }
    }

    /// Writes all of `text` to the open `fd` (of `path`, for the error), however many calls it takes.
    private static func writeAll(_ text: String, to fd: Int32, path: String) throws(FileSystemError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written >= 0 {
                bytes = bytes.dropFirst(written)
            } else if errno != EINTR {
                throw FileSystemError(path: path, code: errno)
            }
        }
    }

    /// Renames `from` to `to`, replacing it.
    public static func move(_ from: String, to: String) throws(FileSystemError) {
        guard rename(from, to) == 0 else { throw FileSystemError(path: to, code: errno) }
    }

    /// A new empty folder, `PREFIX-XXXXXX` made by `mkdtemp` under `$TMPDIR` (or `/tmp`); nil
    /// when it cannot be made.
    public static func makeTemporaryFolder(prefix: String) -> String? {
        let base = ProcessEnvironment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
    }

    /// Removes a file; a missing one is no error.
    public static func remove(_ path: String) { unlink(path) }

    /// `rm -rf`, not following symbolic links.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in entries(of: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
