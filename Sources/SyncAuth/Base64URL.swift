import Foundation

/// base64url without padding (RFC 7515 §2), the alphabet of every JWT part.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Nil for anything outside the alphabet, padding included (a JWT part never has it), and for
    /// any text but the one encoding of its bytes: a last character whose unused low bits are not
    /// zero decodes to the same bytes as the canonical one, which would let anyone make a second,
    /// different token string out of a signed one (RFC 4648 §3.5).
    static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: standard).map(Array.init), encode(bytes).utf8.elementsEqual(text.utf8) else { return nil }
        return bytes
    }
}
