/// The standard's single-byte decoder over an index single-byte, and x-user-defined's decoder,
/// which is the same with an index computed rather than stored. Neither keeps state.
struct SingleByteDecoder {
    /// The code point of bytes 0x80 to 0xFF; 0 where the byte is an error.
    let index: [UInt16]

    /// x-user-defined: 0x80 to 0xFF are U+F780 to U+F7FF.
    static let xUserDefined = SingleByteDecoder(index: (0..<128).map { UInt16(0xF780 + $0) })

    func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool) -> Bool {
        index.withUnsafeBufferPointer { table in
            while let byte = queue.next() {
                if byte < 0x80 {
                    output.append(UInt16(byte))
                    continue
                }
                let codePoint = table[Int(byte) - 0x80]
                if codePoint == 0 {
                    if fatal { return false }
                    output.append(UTF16Output.replacement)
                } else {
                    output.append(codePoint)
                }
            }
            return true
        }
    }
}
