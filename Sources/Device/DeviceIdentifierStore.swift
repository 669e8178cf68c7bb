import Bridge
import Glibc
import SystemIO

/// Keeps the device id in `<data dir>/device-id`, creating it on first use.
///
/// One actor per service (per app run) serializes the run's read-or-create. Across runs and
/// processes the new file is published with `link(2)`, which fails if another got there first;
/// that one's id then wins, so concurrent first calls agree on one id.
/// A file that holds no UUID is replaced, atomically, with `rename(2)`.
actor DeviceIdentifierStore {
    static let fileName = "device-id"

    func identifier(inDirectory directory: String) throws(BridgeError) -> DeviceIdentifier {
        let path = directory + "/" + Self.fileName
        let existing: String?
        do {
            existing = try FileSystem.textIfPresent(atPath: path)
        } catch {
            throw BridgeError.failed(reason: "unreadable", error.description)
        }
        if let existing, let identifier = DeviceIdentifier(parsing: existing) { return identifier }
        do {
            return try create(path: path, directory: directory, replacing: existing != nil)
        } catch {
            throw BridgeError.failed(reason: "unwritable", error.description)
        }
    }

    private func create(path: String, directory: String, replacing: Bool) throws(FileSystemError) -> DeviceIdentifier {
        let fresh = DeviceIdentifier.random()
        try FileSystem.createDirectories(directory)
        let temporary = path + ".\(getpid()).\(DeviceIdentifier.random()).tmp"
        try FileSystem.createNew(temporary, text: fresh.description + "\n")
        defer { unlink(temporary) }
        if !replacing {
            if link(temporary, path) == 0 { return fresh }
            // Another process created it since we looked: its id wins if it holds one. Otherwise
            // (a corrupt file appeared, or this file system has no hard links) fall through.
            if errno == EEXIST, let text = try? FileSystem.text(atPath: path), let winner = DeviceIdentifier(parsing: text) {
                return winner
            }
        }
        guard rename(temporary, path) == 0 else { throw FileSystemError(path: path, code: errno) }
        return fresh
    }
}
