/// The standard's EUC-KR decoder.
struct EUCKRDecoder {
    var leading: UInt8 = 0

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        MultiByteIndexes.eucKR.codePoints.withUnsafeBufferPointer { index in
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
                    if byte >= 0x41 && byte <= 0xFE {
                        let codePoint = index[(lead - 0x81) * 190 + Int(byte) - 0x41]
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

    @inline(__always)
    static func decodeValidPrefix(_ queue: inout ByteQueue, into output: inout UTF16Output, _ index: UnsafeBufferPointer<UInt32>) {
        while true {
            queue.copyASCII(into: &output)
            let input = queue.input
            var i = queue.position
            while i + 1 < queue.count {
                let lead = input[i], trail = input[i + 1]
                guard lead >= 0x81 && lead <= 0xFE, trail >= 0x41 && trail <= 0xFE else { break }
                let codePoint = index[(Int(lead) - 0x81) * 190 + Int(trail) - 0x41]
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
