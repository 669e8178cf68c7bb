import Glibc

/// A system call on a file failed: the path and the C library's `errno`, worded as `path: reason`.
struct SystemFileError: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    let code: Int32

    /// The file does not exist (or a folder on its path does not), as opposed to existing unread.
    var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    var description: String { "\(path): \(String(cString: strerror(code)))" }
}
