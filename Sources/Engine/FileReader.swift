import Glibc

/// Small synchronous file access for the JS thread (module sources), without Foundation.
public enum FileReader {
    public enum Kind { case file, directory, missing }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The file's bytes; throws an errno description.
    public static func bytes(atPath path: String) throws(FileReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        var result = [UInt8]()
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// The file as UTF-8 text (a byte-order mark is dropped).
    public static func text(atPath path: String) throws(FileReadError) -> String {
        var bytes = try bytes(atPath: path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Names of a folder's entries (not "." or ".."), sorted; empty when it cannot be read.
    public static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
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

    /// The folder part of `path`.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}
