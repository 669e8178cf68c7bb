import Glibc

/// A UUID in its canonical text form, lowercase: `"0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5a"`.
public struct DeviceIdentifier: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// The file in an app's data folder that holds it: the device service's `device.id` and the
    /// patch loader's checks and reports read the same one.
    public static let fileName = "device-id"

    /// A fresh version 4 (random) UUID from the system's secure random source.
    public static func random() -> DeviceIdentifier {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 9562 variant
        let hex = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
        return DeviceIdentifier(description: groups.map { $0.joined() }.joined(separator: "-"))
    }

    /// Reads a UUID in the 8-4-4-4-12 hexadecimal form, any case, surrounding white space allowed.
    public init?(parsing text: String) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()).lowercased()
        let groups = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
              groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) && $0.allSatisfy(\.isASCII) })
        else { return nil }
        description = trimmed
    }

    private init(description: String) {
        self.description = description
    }

    /// The id kept in `<directory>/device-id`, created there on first use.
    ///
    /// Across runs and processes the new file is published with `link(2)`, which fails if another
    /// got there first; that one's id then wins, so concurrent first calls agree on one id. A file
    /// that holds no UUID is replaced, atomically, with `rename(2)`. Callers in one process that
    /// may race serialize their calls (the device service has an actor for it).
    public static func stored(inDirectory directory: String) throws(FileSystemError) -> DeviceIdentifier {
        let path = directory + "/" + fileName
        let existing = try FileSystem.textIfPresent(atPath: path)
        if let existing, let identifier = DeviceIdentifier(parsing: existing) { return identifier }
        return try create(path: path, directory: directory, replacing: existing != nil)
    }

    private static func create(path: String, directory: String, replacing: Bool) throws(FileSystemError) -> DeviceIdentifier {
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
