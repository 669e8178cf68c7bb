import Glibc

/// A file operation failed: the path, and the C library's `errno` when it was a system call.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    /// `errno`; 0 when the failure was not a system call's (``reason`` says what it was).
    public let code: Int32
    public let reason: String

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
        reason = String(cString: strerror(code))
    }

    public init(path: String, reason: String) {
        self.path = path
        code = 0
        self.reason = reason
    }

    /// The file does not exist (or a folder on its path does not), as opposed to existing unread.
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    public var description: String { "\(path): \(reason)" }
}
