/// base64url without padding (RFC 7515 §2), the alphabet of every JWT part. On bytes, with no
/// Foundation: every request to a sync server with tokens decodes three parts, and Foundation's
/// string replacements around its base64 cost a few percent of the server's CPU per request.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's value in the alphabet; 0xFF for bytes outside it.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { values[Int(character)] = UInt8(value) }
        return values
    }()

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            // 3 bytes give 4 characters, 2 give 3, 1 gives 2.
            for position in 0...count { text.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)]) }
            index += count
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Nil for anything outside the alphabet, padding included (a JWT part never has it), and for
    /// any text but the one encoding of its bytes: a last character whose unused low bits are not
    /// zero decodes to the same bytes as the canonical one, which would let anyone make a second,
    /// different token string out of a signed one (RFC 4648 §3.5).
    static func decode(_ text: Substring) -> [UInt8]? {
        let characters = text.utf8
        // One character left over carries 6 bits: no whole byte, so no encoding ends that way.
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // The bits past the last whole byte must be zero in the one encoding.
        guard buffer == 0 else { return nil }
        return bytes
    }
}
