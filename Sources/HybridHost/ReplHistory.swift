import SystemIO

/// The lines typed at `hybrid repl`, kept in `<data dir>/repl_history`: one entry a line, newest
/// last, at most `limit` of them. Loaded at start; written after each entry (a whole file through
/// a rename, so a crash leaves the old history or the new one), so a REPL killed keeps what was
/// typed before.
public final class ReplHistory: Sendable {
    /// Its name in the data folder, one of the host's entries (``DataFolderLayout``).
    public static let fileName = "repl_history"

    public let path: String
    public let limit: Int
    private let lines: Locked<[String]>

    /// Oldest first.
    public var entries: [String] { lines.value }

    public init(path: String, limit: Int = 1000) {
        self.path = path
        self.limit = limit
        let text = (try? FileSystem.textIfPresent(atPath: path)) ?? nil
        lines = Locked(Array((text ?? "").split(separator: "\n").map(String.init).suffix(limit)))
    }

    /// The history of an app's data folder.
    public convenience init(dataDirectory: String) {
        self.init(path: dataDirectory + "/" + Self.fileName)
    }

    /// Adds a line, unless it is blank or repeats the newest; true when it was added.
    @discardableResult
    public func add(_ line: String) -> Bool {
        lines.withLock { entries in
            guard line.contains(where: { !$0.isWhitespace }), line != entries.last else { return false }
            entries.append(line)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
            // A history that cannot be written (a read-only data dir) must not stop the REPL.
            try? FileSystem.write(entries.joined(separator: "\n") + "\n", to: path)
            return true
        }
    }
}
