/// The standard's Shift_JIS decoder.
struct ShiftJISDecoder {
    var leading: UInt8 = 0

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        MultiByteIndexes.jis0208.codePoints.withUnsafeBufferPointer { index in
            while true {
                if leading == 0 && queue.readsInput { queue.copyASCII(into: &output) }
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
                    if (byte >= 0x40 && byte <= 0x7E) || (byte >= 0x80 && byte <= 0xFC) {
                        let pointer = (lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 + Int(byte) - (byte < 0x7F ? 0x40 : 0x41)
                        // Windows' user-defined characters (EUDC): Private Use, by arithmetic.
                        if pointer >= 8836 && pointer <= 10715 {
                            output.append(UInt16(0xE000 - 8836 + pointer))
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
                if byte <= 0x80 {
                    output.append(UInt16(byte))
                } else if byte >= 0xA1 && byte <= 0xDF {
                    output.append(UInt16(0xFF61 - 0xA1 + Int(byte)))
                } else if (byte >= 0x81 && byte <= 0x9F) || (byte >= 0xE0 && byte <= 0xFC) {
                    leading = byte
                } else {
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                }
            }
        }
    }
}
