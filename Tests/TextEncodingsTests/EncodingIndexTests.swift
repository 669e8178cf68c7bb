@testable import TextEncodings
import Testing

@Suite("multi-byte indexes built from ICU")
struct EncodingIndexTests {
    /// FNV-1a over each mapped entry as pointer and code point, 4 bytes each, little-endian: what
    /// scripts/encoding-tables computes over the standard's indexes.json.
    static func digest(_ index: MultiByteIndex) -> (entries: Int, digest: UInt64) {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        var entries = 0
        for (pointer, codePoint) in index.codePoints.enumerated() where codePoint != 0 {
            entries += 1
            for number in [UInt32(pointer), codePoint] {
                for shift in stride(from: 0, to: 32, by: 8) {
                    value = (value ^ UInt64((number >> UInt32(shift)) & 0xFF)) &* 0x100_0000_01B3
                }
            }
        }
        return (entries, value)
    }

    @Test("each index equals the standard's, entry for entry", arguments: [
        ("gb18030", MultiByteIndexes.gb18030), ("big5", MultiByteIndexes.big5), ("eucKR", MultiByteIndexes.eucKR),
        ("jis0208", MultiByteIndexes.jis0208), ("jis0212", MultiByteIndexes.jis0212),
    ])
    func equalsTheStandard(name: String, index: MultiByteIndex) throws {
        let expected = try #require(WHATWGIndexDigests.byIndex[name])
        let actual = Self.digest(index)
        #expect(actual.entries == expected.entries, "\(name): \(actual.entries) pointers mapped, the standard maps \(expected.entries)")
        #expect(actual.digest == expected.digest, "\(name): the entries differ from the standard's")
    }

    @Test("the encoders' lookups take the pointer the standard says")
    func pointers() {
        // U+2170 (small roman numeral one) is at 8634 (NEC's selection of IBM extensions) and at
        // 10716 (the IBM extension): EUC-JP takes the first, Shift_JIS skips 8272...8835.
        #expect(MultiByteIndexes.jis0208Pointers[0x2170] == 8634)
        #expect(MultiByteIndexes.shiftJISPointers[0x2170] == 10716)
        // index Big5 pointer: U+5341 (十) takes its last pointer, U+2550 too; Hong Kong extensions
        // (below 5024) are never chosen.
        #expect(MultiByteIndexes.big5Pointers[0x5341] == 5512)
        #expect(MultiByteIndexes.big5Pointers[0x2550] == 18991)
        #expect(MultiByteIndexes.big5Pointers[0x43F0] == nil)
    }
}
