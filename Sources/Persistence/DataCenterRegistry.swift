import Foundation
import SystemIO

/// An app run's open databases, one ``DataCenter`` (one pool, one write path) per file, kept open
/// across calls and closed when the registry goes. Every service that writes a database of the
/// run (storage, sync) must share the run's registry: two DataCenters over one file would be two
/// write paths, and neither would see the other's change events.
public final class DataCenterRegistry: Sendable {
    private let centers = Locked<[String: DataCenter]>([:])
    /// The journal its databases' schemas may declare (``DatabaseJournal``): parse them with it.
    public let journal: (any DatabaseJournal.Type)?

    public init(journal: (any DatabaseJournal.Type)? = nil) { self.journal = journal }

    /// `name` must be a plain file name: letters, digits, `_`, `-` and `.`, not starting with a dot.
    public static func checkName(_ name: String, path: String = "/database") throws(PersistenceError) {
        let allowed = name.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45 || b == 46
        }
        guard !name.isEmpty, name.utf8.count <= 100, allowed, !name.hasPrefix(".") else {
            throw .invalid(path: path, message: "expected a database name of letters, digits, _, - and . (not starting with a dot, no path separators, at most 100), got \(Quoted(name))")
        }
    }

    /// The data center of `<directory>/<name>.sqlite`. Without `create`, a database that has no file
    /// yet is `unknown_database`.
    public func dataCenter(directory: String, name: String, create: Bool) throws(PersistenceError) -> DataCenter {
        try Self.checkName(name)
        let path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/" + name + ".sqlite"
        if let center = centers.withLock({ $0[path] }), !center.isReadOnly || access(path, W_OK) != 0 { return center }
        if !create && !FileManager.default.fileExists(atPath: path) {
            throw .failed(reason: "unknown_database", message: "no database \(Quoted(name)) in \(directory); open it with a schema first",
                          details: ["database": .string(name)])
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PersistenceError.failed(reason: "io", message: "cannot create \(directory): \(error)", details: [:])
        }
        return try centers.withLock { (centers: inout [String: DataCenter]) throws(PersistenceError) -> DataCenter in
            // A center opened for reading gives way to a writable one once the file can be written.
            if let center = centers[path], !center.isReadOnly || access(path, W_OK) != 0 { return center }
            let center = try DataCenter(name: name, path: path, journal: journal)
            centers[path] = center
            return center
        }
    }

    /// Forgets every open database (tests that reopen files).
    public func closeAll() { centers.withLock { $0.removeAll() } }
}
