// The HostTesting module: what tests and benchmarks share and the product never links: servers
// on 127.0.0.1 (a Hummingbird server stopped gracefully, a fault-injecting proxy), the built
// `hybrid` for tests that run it as a child, scratch folders.
import SystemIO

/// A fresh folder for one test or benchmark (`FileSystem.makeTemporaryFolder`: under `$TMPDIR` or `/tmp`),
/// removed with everything in it by ``remove()``.
///
/// ```swift
/// let folder = TemporaryFolder(prefix: "storage-tests")
/// defer { folder.remove() }
/// ```
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(prefix: String = "hybrid-tests") {
        guard let path = FileSystem.makeTemporaryFolder(prefix: prefix) else { preconditionFailure("cannot make a folder under $TMPDIR or /tmp") }
        self.path = path
    }

    public func remove() { FileSystem.removeTree(path) }

    /// Writes `text` to `name` in the folder (made if needed) and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileSystem.createDirectories(FileSystem.directory(of: file))
        try FileSystem.write(text, to: file)
        return file
    }
}
