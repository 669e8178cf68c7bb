/// The standard's shared UTF-16 decoder (UTF-16LE and UTF-16BE), with a fast path over the input
/// for whole code units that are not surrogates or that form a pair.
struct UTF16Decoder {
    let bigEndian: Bool
    /// The first byte of a code unit, when the input stopped between its two bytes.
    var leadingByte: UInt8?
    /// A leading surrogate waiting for its trailing one (0: none).
    var leadingSurrogate: UInt16 = 0

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    var heldByteCount: Int { (leadingByte == nil ? 0 : 1) + (leadingSurrogate == 0 ? 0 : 2) }

    @inline(__always)
    private func unit(_ first: UInt8, _ second: UInt8) -> UInt16 {
        bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
    }

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        while true {
            if leadingByte == nil && leadingSurrogate == 0 && queue.readsInput { decodeValidPrefix(&queue, into: &output) }
            guard let byte = queue.next() else {
                guard flush, leadingByte != nil || leadingSurrogate != 0 else { return true }
                leadingByte = nil
                leadingSurrogate = 0
                if fatal { return false }
                output.append(UTF16Output.replacement)
                return true
            }
            guard let first = leadingByte else {
                leadingByte = byte
                continue
            }
            leadingByte = nil
            let codeUnit = unit(first, byte)
            if leadingSurrogate != 0 {
                let leading = leadingSurrogate
                leadingSurrogate = 0
                if codeUnit >= 0xDC00 && codeUnit <= 0xDFFF {
                    output.append(leading)
                    output.append(codeUnit)
                    continue
                }
                // Restore the unit's two bytes, in the order they came.
                queue.restore(first, byte)
                if fatal { return false }
                output.append(UTF16Output.replacement)
                continue
            }
            if codeUnit >= 0xD800 && codeUnit <= 0xDBFF {
                leadingSurrogate = codeUnit
                continue
            }
            if codeUnit >= 0xDC00 && codeUnit <= 0xDFFF {
                if fatal { return false }
                output.append(UTF16Output.replacement)
                continue
            }
            output.append(codeUnit)
        }
    }

    @inline(__always)
    private func decodeValidPrefix(_ queue: inout ByteQueue, into output: inout UTF16Output) {
        let input = queue.input
        let end = queue.count
        var i = queue.position
        var out = output.base + output.count
        defer {
            output.count = out - output.base
            queue.position = i
        }
        while i + 1 < end {
            let codeUnit = unit(input[i], input[i + 1])
            if codeUnit < 0xD800 || codeUnit > 0xDFFF {
                out.pointee = codeUnit
                out += 1
                i += 2
                continue
            }
            guard codeUnit <= 0xDBFF, i + 3 < end else { return }
            let trailing = unit(input[i + 2], input[i + 3])
            guard trailing >= 0xDC00 && trailing <= 0xDFFF else { return }
            out[0] = codeUnit
            out[1] = trailing
            out += 2
            i += 4
        }
    }
}
