/// A UUID in its canonical text form, lowercase: `"0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5a"`.
struct DeviceIdentifier: Sendable, Hashable, CustomStringConvertible {
    let description: String

    /// A fresh version 4 (random) UUID from the system's secure random source.
    static func random() -> DeviceIdentifier {
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
    init?(parsing text: String) {
        let trimmed = text.trimmingWhiteSpace().lowercased()
        let groups = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
              groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) && $0.allSatisfy(\.isASCII) })
        else { return nil }
        description = trimmed
    }

    private init(description: String) {
        self.description = description
    }
}
