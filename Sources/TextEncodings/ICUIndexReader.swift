@_implementationOnly import CICU

/// Builds the standard's multi-byte indexes from ICU's converters: every byte sequence an index
/// has a pointer for is decoded once by ICU, and ``ICUIndexCorrections`` puts right what ICU maps
/// differently. TextEncodingsTests compares each result with the standard's own index, entry for
/// entry (by digest), so a different ICU cannot change them unnoticed.
enum ICUIndexReader {
    /// index gb18030: two bytes, 0x81–0xFE then 0x40–0x7E or 0x80–0xFE.
    static func gb18030() -> MultiByteIndex {
        var sequences: [(pointer: Int, bytes: [UInt8])] = []
        for lead in 0x81...0xFE {
            for trail in Array(0x40...0x7E) + Array(0x80...0xFE) {
                let pointer = (lead - 0x81) * 190 + trail - (trail < 0x7F ? 0x40 : 0x41)
                sequences.append((pointer, [UInt8(lead), UInt8(trail)]))
            }
        }
        var codePoints = read("gb18030", sequences, count: 23940, keepingPrivateUse: true)
        ICUIndexCorrections.apply(ICUIndexCorrections.gb18030, to: &codePoints)
        return MultiByteIndex(codePoints: codePoints)
    }

    /// index Big5: two bytes, 0x81–0xFE then 0x40–0x7E or 0xA1–0xFE, from ICU's Big5-HKSCS.
    static func big5() -> MultiByteIndex {
        var sequences: [(pointer: Int, bytes: [UInt8])] = []
        for lead in 0x81...0xFE {
            for trail in Array(0x40...0x7E) + Array(0xA1...0xFE) {
                let pointer = (lead - 0x81) * 157 + trail - (trail < 0x7F ? 0x40 : 0x62)
                sequences.append((pointer, [UInt8(lead), UInt8(trail)]))
            }
        }
        var codePoints = read("Big5-HKSCS", sequences, count: 19782)
        ICUIndexCorrections.apply(ICUIndexCorrections.big5, to: &codePoints)
        return MultiByteIndex(codePoints: codePoints)
    }

    /// index EUC-KR: two bytes, 0x81–0xFE then 0x41–0xFE, from ICU's windows-949 (the Unified
    /// Hangul Code the index is).
    static func eucKR() -> MultiByteIndex {
        var sequences: [(pointer: Int, bytes: [UInt8])] = []
        for lead in 0x81...0xFE {
            for trail in 0x41...0xFE {
                sequences.append(((lead - 0x81) * 190 + trail - 0x41, [UInt8(lead), UInt8(trail)]))
            }
        }
        return MultiByteIndex(codePoints: read("windows-949", sequences, count: 23940))
    }

    /// index jis0208, through Shift_JIS bytes (which reach every pointer of it, IBM's and NEC's
    /// extensions included), from ICU's ibm-943. Pointers 8836 to 10715 are Shift_JIS's user-defined
    /// area, which the decoder maps itself, and have no entry.
    static func jis0208() -> MultiByteIndex {
        var sequences: [(pointer: Int, bytes: [UInt8])] = []
        for lead in Array(0x81...0x9F) + Array(0xE0...0xFC) {
            for trail in Array(0x40...0x7E) + Array(0x80...0xFC) {
                let pointer = (lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 + trail - (trail < 0x7F ? 0x40 : 0x41)
                if pointer >= 8836 && pointer <= 10715 { continue }
                sequences.append((pointer, [UInt8(lead), UInt8(trail)]))
            }
        }
        return MultiByteIndex(codePoints: read("Shift_JIS", sequences, count: 11280))
    }

    /// index jis0212, through EUC-JP's three-byte sequences 0x8F, 0xA1–0xFE, 0xA1–0xFE.
    static func jis0212() -> MultiByteIndex {
        var sequences: [(pointer: Int, bytes: [UInt8])] = []
        for lead in 0xA1...0xFE {
            for trail in 0xA1...0xFE {
                sequences.append(((lead - 0xA1) * 94 + trail - 0xA1, [0x8F, UInt8(lead), UInt8(trail)]))
            }
        }
        var codePoints = read("EUC-JP", sequences, count: 8836)
        ICUIndexCorrections.dropJIS0212Extensions(from: &codePoints)
        return MultiByteIndex(codePoints: codePoints)
    }

    /// Decodes every sequence with ICU and keeps the code point of each that ICU maps to exactly
    /// one. Private Use code points are left out unless `keepingPrivateUse` (only index gb18030
    /// maps to them): ICU's tables give vendors' user-defined areas to Private Use where the
    /// standard has no entry.
    static func read(_ converterName: String, _ sequences: [(pointer: Int, bytes: [UInt8])], count: Int,
                     keepingPrivateUse: Bool = false) -> [UInt32] {
        guard let converter = cicu_open_skipping(converterName) else {
            preconditionFailure("ICU has no converter named \(converterName): its data is not installed")
        }
        defer { cicu_close(converter) }
        var codePoints = [UInt32](repeating: 0, count: count)
        // One ICU call per 188 sequences or so, each followed by a line feed: a sequence ICU finds
        // broken cannot take the next one's first byte as its own, and what ICU skips or reads as
        // something else shows in the offsets.
        let rowSize = 188
        var start = 0
        while start < sequences.count {
            let row = sequences[start..<min(start + rowSize, sequences.count)]
            start += rowSize
            var source: [UInt8] = []
            var pointerAt: [Int32: (pointer: Int, length: Int)] = [:]
            for sequence in row {
                pointerAt[Int32(source.count)] = (sequence.pointer, sequence.bytes.count)
                source.append(contentsOf: sequence.bytes)
                source.append(0x0A)
            }
            let capacity = source.count * 2 + 16
            var units = [UInt16](repeating: 0, count: capacity)
            var offsets = [Int32](repeating: -1, count: capacity)
            let produced = source.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    cicu_to_unicode(converter, chars.baseAddress, Int32(chars.count), &units, Int32(capacity), &offsets)
                }
            }
            precondition(produced >= 0, "ICU's \(converterName) converter failed on a row of its index")
            var i = 0
            while i < Int(produced) {
                let offset = offsets[i]
                var j = i + 1
                while j < Int(produced) && offsets[j] == offset { j += 1 }
                defer { i = j }
                guard let (pointer, _) = pointerAt[offset] else { continue }
                let scalar: UInt32
                if j - i == 1, !(0xD800...0xDFFF).contains(units[i]) {
                    scalar = UInt32(units[i])
                } else if j - i == 2, (0xD800...0xDBFF).contains(units[i]), (0xDC00...0xDFFF).contains(units[i + 1]) {
                    scalar = 0x10000 + ((UInt32(units[i]) - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00)
                } else {
                    continue
                }
                // Whatever came from inside the sequence (ICU read only part of it) disqualifies it.
                let length = pointerAt[offset]!.length
                if j < Int(produced), offsets[j] > offset, offsets[j] < offset + Int32(length) { continue }
                if !keepingPrivateUse && (0xE000...0xF8FF).contains(scalar) { continue }
                codePoints[pointer] = scalar
            }
        }
        return codePoints
    }
}
