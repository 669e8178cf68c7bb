import Crypto

/// Device bearer tokens: 32 random bytes in hex, of which the server keeps only the SHA-256, so a
/// copy of the database does not let anyone push as a device.
enum DeviceToken {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The hex SHA-256 of the token's UTF-8 bytes: what `sync_device.tokenDigest` holds.
    static func digest(_ token: String) -> String {
        hex(Array(SHA256.hash(data: Array(token.utf8))))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
