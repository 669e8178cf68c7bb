/// The standard's Big5 decoder.
struct Big5Decoder {
    var leading: UInt8 = 0

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        MultiByteIndexes.big5.codePoints.withUnsafeBufferPointer { index in
            while true {
                if leading == 0 && queue.readsInput { Self.decodeValidPrefix(&queue, into: &output, index) }
                guard let byte = queue.next() else {
                    guard flush, leading != 0 else { return true }
                    leading = 0
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                    return true
                }
                if leading != 0 {
                    let lead = Int(leading)
                    leading = 0
                    if (byte >= 0x40 && byte <= 0x7E) || (byte >= 0xA1 && byte <= 0xFE) {
                        let pointer = (lead - 0x81) * 157 + Int(byte) - (byte < 0x7F ? 0x40 : 0x62)
                        if let pair = Self.twoCodePoints(pointer) {
                            output.append(pair.0)
                            output.append(pair.1)
                            continue
                        }
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
                } else if byte >= 0x81 && byte <= 0xFE {
                    leading = byte
                } else {
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                }
            }
        }
    }

    /// The four pointers that decode to two code points (a letter and a combining mark).
    @inline(__always)
    static func twoCodePoints(_ pointer: Int) -> (UInt16, UInt16)? {
        switch pointer {
        case 1133: return (0x00CA, 0x0304)
        case 1135: return (0x00CA, 0x030C)
        case 1164: return (0x00EA, 0x0304)
        case 1166: return (0x00EA, 0x030C)
        default: return nil
        }
    }

    @inline(__always)
    static func decodeValidPrefix(_ queue: inout ByteQueue, into output: inout UTF16Output, _ index: UnsafeBufferPointer<UInt32>) {
        while true {
            queue.copyASCII(into: &output)
            let input = queue.input
            var i = queue.position
            while i + 1 < queue.count {
                let lead = input[i], trail = input[i + 1]
                guard lead >= 0x81 && lead <= 0xFE, (trail >= 0x40 && trail <= 0x7E) || (trail >= 0xA1 && trail <= 0xFE) else { break }
                let pointer = (Int(lead) - 0x81) * 157 + Int(trail) - (trail < 0x7F ? 0x40 : 0x62)
                let codePoint = index[pointer]
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
