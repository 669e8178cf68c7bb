// The HostTesting module: what tests and benchmarks share and the product never links: servers
// on 127.0.0.1 (a Hummingbird server stopped gracefully, a fault-injecting proxy), the built
// `hybrid` for tests that run it as a child, scratch folders.
import Glibc
import SystemIO

/// A fresh folder for one test or benchmark, made with `mkdtemp` under `$TMPDIR` (or `/tmp`),
/// removed with everything in it by ``remove()``.
///
/// ```swift
/// let folder = TemporaryFolder(prefix: "storage-tests")
/// defer { folder.remove() }
/// ```
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(prefix: String = "hybrid-tests") {
        let base = ProcessEnvironment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    public func remove() { FileSystem.removeTree(path) }
}
