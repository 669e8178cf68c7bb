import Bridge
import Glibc

/// Keeps the device id in `<data dir>/device-id`, creating it on first use.
///
/// One actor for the whole process serializes the read-or-create, so concurrent first calls, even
/// from several service instances, agree on one id. Across processes the new file is published
/// with `link(2)`, which fails if another process got there first; that process's id then wins.
/// A file that holds no UUID is replaced, atomically, with `rename(2)`.
actor DeviceIdentifierStore {
    static let shared = DeviceIdentifierStore()

    static let fileName = "device-id"

    func identifier(inDirectory directory: String) throws(BridgeError) -> DeviceIdentifier {
        let path = directory + "/" + Self.fileName
        let existing: String?
        do {
            existing = try SystemFile.readIfPresent(path)
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

    private func create(path: String, directory: String, replacing: Bool) throws(SystemFileError) -> DeviceIdentifier {
        let fresh = DeviceIdentifier.random()
        try SystemFile.makeDirectory(directory)
        let temporary = path + ".\(getpid()).\(DeviceIdentifier.random()).tmp"
        try SystemFile.createNew(temporary, text: fresh.description + "\n")
        defer { unlink(temporary) }
        if !replacing {
            if link(temporary, path) == 0 { return fresh }
            // Another process created it since we looked: its id wins if it holds one. Otherwise
            // (a corrupt file appeared, or this file system has no hard links) fall through.
            if errno == EEXIST, let text = try? SystemFile.read(path), let winner = DeviceIdentifier(parsing: text) {
                return winner
            }
        }
        guard rename(temporary, path) == 0 else { throw SystemFileError(path: path, code: errno) }
        return fresh
    }
}
