/// The standard's UTF-8 decoder, with a fast path over the input for ASCII runs and whole, valid
/// sequences; the state machine takes over at anything else (a sequence cut by the chunk's end,
/// an error), so errors follow "Best Practices for Using U+FFFD" exactly as the standard says.
struct UTF8Decoder {
    var codePoint: UInt32 = 0
    var bytesSeen = 0
    var bytesNeeded = 0
    var lowerBoundary: UInt8 = 0x80
    var upperBoundary: UInt8 = 0xBF

    /// Bytes read and not yet turned into a code point (at most three).
    var heldByteCount: Int { bytesSeen + (bytesNeeded > 0 ? 1 : 0) }

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        while true {
            if bytesNeeded == 0 && queue.readsInput { Self.decodeValidPrefix(&queue, into: &output) }
            guard let byte = queue.next() else {
                guard flush, bytesNeeded != 0 else { return true }
                // end-of-queue inside a sequence
                self = UTF8Decoder()
                if fatal { return false }
                output.append(UTF16Output.replacement)
                return true
            }
            if bytesNeeded == 0 {
                switch byte {
                case 0x00...0x7F:
                    output.append(UInt16(byte))
                case 0xC2...0xDF:
                    bytesNeeded = 1
                    codePoint = UInt32(byte & 0x1F)
                case 0xE0...0xEF:
                    if byte == 0xE0 { lowerBoundary = 0xA0 }
                    if byte == 0xED { upperBoundary = 0x9F }
                    bytesNeeded = 2
                    codePoint = UInt32(byte & 0x0F)
                case 0xF0...0xF4:
                    if byte == 0xF0 { lowerBoundary = 0x90 }
                    if byte == 0xF4 { upperBoundary = 0x8F }
                    bytesNeeded = 3
                    codePoint = UInt32(byte & 0x07)
                default:
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                }
                continue
            }
            guard byte >= lowerBoundary && byte <= upperBoundary else {
                self = UTF8Decoder()
                queue.restore(byte)
                if fatal { return false }
                output.append(UTF16Output.replacement)
                continue
            }
            lowerBoundary = 0x80
            upperBoundary = 0xBF
            codePoint = (codePoint << 6) | UInt32(byte & 0x3F)
            bytesSeen += 1
            guard bytesSeen == bytesNeeded else { continue }
            let scalar = codePoint
            self = UTF8Decoder()
            output.append(scalar: scalar)
        }
    }

    /// Decodes from the queue's input while it holds ASCII or complete, valid sequences; stops
    /// before the first byte that needs the state machine.
    @inline(__always)
    static func decodeValidPrefix(_ queue: inout ByteQueue, into output: inout UTF16Output) {
        let input = queue.input
        let end = queue.count
        var i = queue.position
        var out = output.base + output.count
        defer {
            output.count = out - output.base
            queue.position = i
        }
        while i < end {
            // Eight ASCII bytes at a time.
            while i + 8 <= end {
                let word = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                UTF16Output.widenASCII(word, into: out)
                i += 8
                out += 8
            }
            guard i < end else { return }
            let lead = input[i]
            if lead < 0x80 {
                out.pointee = UInt16(lead)
                out += 1
                i += 1
            } else if lead >= 0xC2 && lead <= 0xDF {
                guard i + 1 < end else { return }
                let b1 = input[i + 1]
                guard b1 & 0xC0 == 0x80 else { return }
                out.pointee = UInt16(lead & 0x1F) << 6 | UInt16(b1 & 0x3F)
                out += 1
                i += 2
            } else if lead >= 0xE0 && lead <= 0xEF {
                guard i + 2 < end else { return }
                let b1 = input[i + 1], b2 = input[i + 2]
                let lower: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                let upper: UInt8 = lead == 0xED ? 0x9F : 0xBF
                guard b1 >= lower && b1 <= upper && b2 & 0xC0 == 0x80 else { return }
                out.pointee = UInt16(lead & 0x0F) << 12 | UInt16(b1 & 0x3F) << 6 | UInt16(b2 & 0x3F)
                out += 1
                i += 3
            } else if lead >= 0xF0 && lead <= 0xF4 {
                guard i + 3 < end else { return }
                let b1 = input[i + 1], b2 = input[i + 2], b3 = input[i + 3]
                let lower: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                let upper: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                guard b1 >= lower && b1 <= upper && b2 & 0xC0 == 0x80 && b3 & 0xC0 == 0x80 else { return }
                let scalar = UInt32(lead & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F)
                let value = scalar - 0x10000
                out[0] = UInt16(truncatingIfNeeded: 0xD800 | (value >> 10))
                out[1] = UInt16(truncatingIfNeeded: 0xDC00 | (value & 0x3FF))
                out += 2
                i += 4
            } else {
                return
            }
        }
    }
}
