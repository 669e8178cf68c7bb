/// The standard's EUC-JP decoder: JIS X 0208 in two bytes, halfwidth katakana after 0x8E, JIS X 0212
/// in three bytes after 0x8F.
struct EUCJPDecoder {
    var jis0212 = false
    var leading: UInt8 = 0

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        while true {
            if leading == 0 && queue.readsInput { queue.copyASCII(into: &output) }
            guard let byte = queue.next() else {
                guard flush, leading != 0 else { return true }
                leading = 0
                if fatal { return false }
                output.append(UTF16Output.replacement)
                return true
            }
            if leading == 0x8E && byte >= 0xA1 && byte <= 0xDF {
                leading = 0
                output.append(UInt16(0xFF61 - 0xA1 + Int(byte)))
                continue
            }
            if leading == 0x8F && byte >= 0xA1 && byte <= 0xFE {
                jis0212 = true
                leading = byte
                continue
            }
            if leading != 0 {
                let lead = Int(leading)
                leading = 0
                var codePoint: UInt32?
                if lead >= 0xA1 && lead <= 0xFE && byte >= 0xA1 && byte <= 0xFE {
                    let pointer = (lead - 0xA1) * 94 + Int(byte) - 0xA1
                    codePoint = jis0212 ? MultiByteIndexes.jis0212.codePoint(pointer) : MultiByteIndexes.jis0208.codePoint(pointer)
                }
                jis0212 = false
                if let codePoint {
                    output.append(scalar: codePoint)
                    continue
                }
                if byte < 0x80 { queue.restore(byte) }
                if fatal { return false }
                output.append(UTF16Output.replacement)
                continue
            }
            if byte < 0x80 {
                output.append(UInt16(byte))
            } else if byte == 0x8E || byte == 0x8F || (byte >= 0xA1 && byte <= 0xFE) {
                leading = byte
            } else {
                if fatal { return false }
                output.append(UTF16Output.replacement)
            }
        }
    }
}
