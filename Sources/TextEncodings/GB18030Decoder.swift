/// The standard's gb18030 decoder, which is also GBK's.
struct GB18030Decoder {
    var first: UInt8 = 0
    var second: UInt8 = 0
    var third: UInt8 = 0

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        MultiByteIndexes.gb18030.codePoints.withUnsafeBufferPointer { index in
            while true {
                if first == 0 && queue.readsInput { Self.decodeValidPrefix(&queue, into: &output, index) }
                guard let byte = queue.next() else {
                    guard flush, first != 0 || second != 0 || third != 0 else { return true }
                    (first, second, third) = (0, 0, 0)
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                    return true
                }
                if third != 0 {
                    guard byte >= 0x30 && byte <= 0x39 else {
                        queue.restore(second, third, byte)
                        (first, second, third) = (0, 0, 0)
                        if fatal { return false }
                        output.append(UTF16Output.replacement)
                        continue
                    }
                    let pointer = (Int(first) - 0x81) * (10 * 126 * 10) + (Int(second) - 0x30) * (10 * 126)
                        + (Int(third) - 0x81) * 10 + Int(byte) - 0x30
                    (first, second, third) = (0, 0, 0)
                    guard let codePoint = GB18030Ranges.codePoint(pointer) else {
                        if fatal { return false }
                        output.append(UTF16Output.replacement)
                        continue
                    }
                    output.append(scalar: codePoint)
                    continue
                }
                if second != 0 {
                    if byte >= 0x81 && byte <= 0xFE {
                        third = byte
                        continue
                    }
                    queue.restore(second, byte)
                    (first, second) = (0, 0)
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                    continue
                }
                if first != 0 {
                    if byte >= 0x30 && byte <= 0x39 {
                        second = byte
                        continue
                    }
                    let leading = Int(first)
                    first = 0
                    if (byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFE) {
                        let pointer = (leading - 0x81) * 190 + Int(byte) - (byte < 0x7F ? 0x40 : 0x41)
                        let codePoint = index[pointer]
                        if codePoint != 0 {
                            output.append(scalar: codePoint)
                            continue
                        }
                    }
                    if byte < 0x80 { queue.restore(byte) }
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                    continue
                }
                if byte < 0x80 {
                    output.append(UInt16(byte))
                } else if byte == 0x80 {
                    output.append(0x20AC)
                } else if byte <= 0xFE {
                    first = byte
                } else {
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                }
            }
        }
    }

    /// ASCII, 0x80 and two-byte sequences, straight from the input, up to the first byte that needs
    /// the state machine (a four-byte sequence, an error, a sequence cut by the chunk's end).
    @inline(__always)
    static func decodeValidPrefix(_ queue: inout ByteQueue, into output: inout UTF16Output, _ index: UnsafeBufferPointer<UInt32>) {
        while true {
            queue.copyASCII(into: &output)
            let input = queue.input
            var i = queue.position
            while i < queue.count {
                let lead = input[i]
                if lead < 0x80 { break }
                if lead == 0x80 {
                    output.append(0x20AC)
                    i += 1
                    continue
                }
                guard lead <= 0xFE, i + 1 < queue.count else { break }
                let trail = input[i + 1]
                guard (trail >= 0x40 && trail <= 0x7E) || (trail >= 0x80 && trail <= 0xFE) else { break }
                let codePoint = index[(Int(lead) - 0x81) * 190 + Int(trail) - (trail < 0x7F ? 0x40 : 0x41)]
                guard codePoint != 0 else { break }
                output.append(scalar: codePoint)
                i += 2
            }
            let advanced = i != queue.position
            queue.position = i
            if !advanced || i >= queue.count || input[i] >= 0x80 { return }
        }
    }
}
