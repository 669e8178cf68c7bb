/// The standard's ISO-2022-JP decoder: escape sequences switch between ASCII, JIS X 0201 Roman,
/// halfwidth katakana and JIS X 0208; two escape sequences in a row with nothing between them are
/// an error (so that an escape cannot hide text from a filter).
struct ISO2022JPDecoder {
    enum State { case ascii, roman, katakana, leadingByte, trailingByte, escapeStart, escape }

    var state = State.ascii
    var outputState = State.ascii
    var leading: UInt8 = 0
    var output = false

    mutating func decode(_ queue: inout ByteQueue, into out: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        while true {
            if state == .ascii && queue.readsInput {
                let before = queue.position
                queue.copyASCII(into: &out)
                // ASCII excludes 0x0E, 0x0F and 0x1B: copied ones are undone.
                for position in before..<queue.position {
                    let byte = queue.input[position]
                    if byte == 0x0E || byte == 0x0F || byte == 0x1B {
                        out.count -= queue.position - position
                        queue.position = position
                        break
                    }
                }
                if queue.position != before { output = false }
            }
            let next = queue.next()
            if next == nil && !flush { return true }
            switch state {
            case .ascii, .roman, .katakana, .leadingByte:
                guard let byte = next else { return true }
                if byte == 0x1B {
                    state = .escapeStart
                    continue
                }
                output = false
                var codePoint: UInt16?
                switch state {
                case .ascii:
                    if byte <= 0x7F && byte != 0x0E && byte != 0x0F { codePoint = UInt16(byte) }
                case .roman:
                    if byte == 0x5C {
                        codePoint = 0x00A5
                    } else if byte == 0x7E {
                        codePoint = 0x203E
                    } else if byte <= 0x7F && byte != 0x0E && byte != 0x0F {
                        codePoint = UInt16(byte)
                    }
                case .katakana:
                    if byte >= 0x21 && byte <= 0x5F { codePoint = UInt16(0xFF61 - 0x21 + Int(byte)) }
                default:
                    if byte >= 0x21 && byte <= 0x7E {
                        leading = byte
                        state = .trailingByte
                        continue
                    }
                }
                if let codePoint {
                    out.append(codePoint)
                } else {
                    if fatal { return false }
                    out.append(UTF16Output.replacement)
                }
            case .trailingByte:
                guard let byte = next else {
                    state = .leadingByte
                    if fatal { return false }
                    out.append(UTF16Output.replacement)
                    continue
                }
                if byte == 0x1B {
                    state = .escapeStart
                    if fatal { return false }
                    out.append(UTF16Output.replacement)
                    continue
                }
                state = .leadingByte
                if byte >= 0x21 && byte <= 0x7E,
                   let codePoint = MultiByteIndexes.jis0208.codePoint((Int(leading) - 0x21) * 94 + Int(byte) - 0x21) {
                    out.append(scalar: codePoint)
                    continue
                }
                if fatal { return false }
                out.append(UTF16Output.replacement)
            case .escapeStart:
                if let byte = next, byte == 0x24 || byte == 0x28 {
                    leading = byte
                    state = .escape
                    continue
                }
                if let byte = next { queue.restore(byte) }
                output = false
                state = outputState
                if fatal { return false }
                out.append(UTF16Output.replacement)
            case .escape:
                let lead = leading
                leading = 0
                var switched: State?
                if let byte = next {
                    if lead == 0x28 && byte == 0x42 { switched = .ascii }
                    if lead == 0x28 && byte == 0x4A { switched = .roman }
                    if lead == 0x28 && byte == 0x49 { switched = .katakana }
                    if lead == 0x24 && (byte == 0x40 || byte == 0x42) { switched = .leadingByte }
                }
                if let switched {
                    state = switched
                    outputState = switched
                    let wasOutput = output
                    output = true
                    if !wasOutput { continue }
                    if fatal { return false }
                    out.append(UTF16Output.replacement)
                    continue
                }
                if let byte = next { queue.restore(lead, byte) } else { queue.restore(lead) }
                output = false
                state = outputState
                if fatal { return false }
                out.append(UTF16Output.replacement)
            }
        }
    }
}
