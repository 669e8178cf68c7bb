/// The Base64 variable-length quantities a source map's `mappings` are written in: each value is
/// sign-and-magnitude, five bits per Base64 digit, least significant first, the sign in the lowest
/// bit of the first digit, and bit 32 of each digit saying another follows.
///
/// ```swift
/// try Base64VLQ.decode("AAgBC")   // [0, 0, 16, 1]
/// ```
public enum Base64VLQ {
    /// Every value in `text`, which holds digits only (no `,` or `;`).
    public static func decode(_ text: String) throws(SourceMapError) -> [Int] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(SourceMapError) in
            try digits.withUnsafeBufferPointer { table throws(SourceMapError) in
                var values: [Int] = []
                var index = 0
                while index < buffer.count { values.append(try next(in: buffer, at: &index, table: table)) }
                return values
            }
        }
    }

    /// `values` written as digits, the inverse of ``decode(_:)``.
    public static func encode(_ values: [Int]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        for value in values {
            var rest = value < 0 ? (-value << 1) | 1 : value << 1
            repeat {
                var digit = rest & 31
                rest >>= 5
                if rest > 0 { digit |= 32 }
                out.append(alphabet[digit])
            } while rest > 0
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value whose first digit is at `index`, which is moved past its last digit. `table` is
    /// ``digits``, which a loop hoists: a static read in the loop costs a once-check per digit.
    @inline(__always)
    static func next(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, table: UnsafeBufferPointer<Int8>) throws(SourceMapError) -> Int {
        var result = 0
        var shift = 0
        var position = index
        while true {
            guard position < bytes.count else {
                throw SourceMapError(.mappings, "a Base64 VLQ value ends in the middle (its last digit says more follow)")
            }
            let byte = bytes[position]
            let digit = byte < 128 ? table[Int(byte)] : -1
            guard digit >= 0 else {
                throw SourceMapError(.mappings, "expected a Base64 digit, got \(describe(byte)) at offset \(position)")
            }
            position += 1
            result |= Int(digit & 31) << shift
            if digit & 32 == 0 { break }
            shift += 5
            // Source maps hold 32-bit values; seven digits would pass 32 bits, and a long run of
            // continuation digits must not shift an Int out of range.
            guard shift < 32 else { throw SourceMapError(.mappings, "a Base64 VLQ value passes 32 bits at offset \(position)") }
        }
        index = position
        let magnitude = result >> 1
        return result & 1 == 0 ? magnitude : -magnitude
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
    }

    /// The value of each ASCII byte as a Base64 digit, -1 for bytes that are not one.
    static let digits: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = Int8(value)
        }
        return table
    }()
}
