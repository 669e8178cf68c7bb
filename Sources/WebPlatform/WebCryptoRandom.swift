import Glibc

/// Random bytes from glibc's arc4random_buf (the kernel's getrandom(2) underneath; it never
/// fails), for getRandomValues, randomUUID and generated keys.
enum WebCryptoRandom {
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let start = buffer.baseAddress, buffer.count > 0 else { return }
        arc4random_buf(start, buffer.count)
    }

    static func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { fill($0) }
        return bytes
    }

    /// A version 4 UUID in its lowercase string form (RFC 9562).
    static func uuid() -> String {
        var bytes = Self.bytes(16)
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
