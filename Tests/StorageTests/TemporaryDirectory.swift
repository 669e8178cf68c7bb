import Foundation

/// A fresh directory under /tmp for one test, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "storage-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
