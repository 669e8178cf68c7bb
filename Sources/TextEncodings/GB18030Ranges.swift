/// The standard's index gb18030 ranges code point and pointer: four-byte gb18030 sequences as 207
/// ranges (``FixedIndexes``) and a few limit checks.
enum GB18030Ranges {
    /// index gb18030 ranges code point for `pointer`, or nil.
    static func codePoint(_ pointer: Int) -> UInt32? {
        if (pointer > 39419 && pointer < 189000) || pointer > 1237575 { return nil }
        if pointer == 7457 { return 0xE7C7 }
        let pointers = FixedIndexes.gb18030RangePointers
        // The last range whose pointer is at most `pointer`.
        var low = 0, high = pointers.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(pointers[middle]) <= pointer { low = middle } else { high = middle - 1 }
        }
        return FixedIndexes.gb18030RangeCodePoints[low] + UInt32(pointer - Int(pointers[low]))
    }

    /// index gb18030 ranges pointer for `codePoint`.
    static func pointer(_ codePoint: UInt32) -> Int {
        if codePoint == 0xE7C7 { return 7457 }
        let codePoints = FixedIndexes.gb18030RangeCodePoints
        var low = 0, high = codePoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if codePoints[middle] <= codePoint { low = middle } else { high = middle - 1 }
        }
        return Int(FixedIndexes.gb18030RangePointers[low]) + Int(codePoint - codePoints[low])
    }
}
