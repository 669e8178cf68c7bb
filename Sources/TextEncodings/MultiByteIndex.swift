/// An index of the standard (pointer to code point) for a multi-byte encoding, built from ICU at
/// its first use (``ICUIndexReader``), with the reverse lookups its encoder needs built at theirs.
struct MultiByteIndex: Sendable {
    /// The code point of each pointer; 0 where the pointer has none (no index maps to U+0000).
    let codePoints: [UInt32]

    init(codePoints: [UInt32]) { self.codePoints = codePoints }

    /// The index code point for `pointer`, or nil.
    @inline(__always)
    func codePoint(_ pointer: Int) -> UInt32? {
        guard pointer >= 0 && pointer < codePoints.count else { return nil }
        let codePoint = codePoints[pointer]
        return codePoint == 0 ? nil : codePoint
    }

    /// The index pointer (the first pointer) of every code point, leaving out the pointers
    /// `excluded` says to; the code points in `last` take their last pointer instead.
    func pointers(excluding excluded: (Int) -> Bool = { _ in false }, last: Set<UInt32> = []) -> [UInt32: UInt16] {
        var pointers: [UInt32: UInt16] = [:]
        pointers.reserveCapacity(codePoints.count)
        for (pointer, codePoint) in codePoints.enumerated() where codePoint != 0 && !excluded(pointer) {
            if pointers[codePoint] == nil || last.contains(codePoint) { pointers[codePoint] = UInt16(pointer) }
        }
        return pointers
    }
}

/// The multi-byte indexes, each built once per process when an encoding first needs it.
enum MultiByteIndexes {
    static let gb18030 = ICUIndexReader.gb18030()
    static let big5 = ICUIndexReader.big5()
    static let eucKR = ICUIndexReader.eucKR()
    static let jis0208 = ICUIndexReader.jis0208()
    static let jis0212 = ICUIndexReader.jis0212()

    // The encoders' reverse lookups ("index pointer").
    static let gb18030Pointers = gb18030.pointers()
    static let eucKRPointers = eucKR.pointers()
    static let jis0208Pointers = jis0208.pointers()
    /// index Shift_JIS pointer: index jis0208 without pointers 8272 to 8835 (NEC's selection of
    /// IBM extensions, which must go back to bytes as the IBM extensions later in the index).
    static let shiftJISPointers = jis0208.pointers(excluding: { $0 >= 8272 && $0 <= 8835 })
    /// index Big5 pointer: without the pointers below (0xA1 - 0x81) × 157 (Hong Kong extensions
    /// are never written literally), and the last pointer for six code points.
    static let big5Pointers = big5.pointers(excluding: { $0 < (0xA1 - 0x81) * 157 },
                                            last: [0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345])
}
