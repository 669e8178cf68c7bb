import PatchProtocol
import SystemIO

/// The few file operations the ledger and the drop folder need, with errors as ``PatchError``.
enum PatchFiles {
    /// Writes through a temporary file and a rename, so a crash leaves the old file or the new one;
    /// `durable` syncs it to disk first.
    static func write(_ text: String, to path: String, durable: Bool = true) throws(PatchError) {
        do { try FileSystem.write(text, to: path, durable: durable) } catch { throw failure(error) }
    }

    static func read(_ path: String) throws(PatchError) -> String {
        do {
            return try FileSystem.text(atPath: path)
        } catch {
            throw PatchError(.storage, "\(path): cannot read: \(error.reason)")
        }
    }

    static func createDirectory(_ path: String) throws(PatchError) {
        do { try FileSystem.createDirectories(path) } catch { throw failure(error) }
    }

    private static func failure(_ error: FileSystemError) -> PatchError {
        PatchError(.storage, error.description)
    }
}
