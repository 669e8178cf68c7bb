/// The bytes a decoder reads in one call: the standard's I/O queue. Bytes a decoder restores to
/// the queue ("restore « second, third, byte » to ioQueue") are read again before the rest of the
/// input; a decoder never holds more than four bytes of state and restored bytes together, so
/// they fit in one word.
struct ByteQueue {
    let input: UnsafePointer<UInt8>
    let count: Int
    var position: Int = 0
    /// Restored bytes, the next one in the low byte.
    private var restored: UInt32 = 0
    private(set) var restoredCount: Int = 0

    init(_ input: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address; nothing is read from it then.
        self.input = input.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.count = input.count
    }

    /// The next byte, or nil at the end (end-of-queue for a final call, else the end of the chunk).
    @inline(__always)
    mutating func next() -> UInt8? {
        if restoredCount > 0 {
            let byte = UInt8(truncatingIfNeeded: restored)
            restored >>= 8
            restoredCount -= 1
            return byte
        }
        guard position < count else { return nil }
        let byte = input[position]
        position += 1
        return byte
    }

    /// Puts `byte` back: it is the next byte read.
    @inline(__always)
    mutating func restore(_ byte: UInt8) {
        precondition(restoredCount < 4, "a decoder restored more than four bytes")
        restored = (restored << 8) | UInt32(byte)
        restoredCount += 1
    }

    /// Puts `bytes` back, in order: `bytes[0]` is the next byte read.
    mutating func restore(_ bytes: UInt8...) {
        for byte in bytes.reversed() { restore(byte) }
    }

    /// Whether the fast paths may read `input` directly: nothing restored is waiting.
    var readsInput: Bool { restoredCount == 0 }

    /// What is left unread: restored bytes first. A fatal decoder's error leaves these in the
    /// queue for the next streaming call, as the standard's queue keeps them.
    var unread: [UInt8] {
        var bytes: [UInt8] = []
        var word = restored
        for _ in 0..<restoredCount {
            bytes.append(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
        if position < count { bytes.append(contentsOf: UnsafeBufferPointer(start: input + position, count: count - position)) }
        return bytes
    }
}

extension ByteQueue {
    /// Copies the ASCII bytes at the front of the input (nothing restored may be waiting), eight at
    /// a time where it can: every decoder but UTF-16's maps ASCII to itself when it holds no state.
    @inline(__always)
    mutating func copyASCII(into output: inout UTF16Output) {
        var i = position
        var out = output.base + output.count
        while i + 8 <= count {
            let word = UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            UTF16Output.widenASCII(word, into: out)
            i += 8
            out += 8
        }
        while i < count && input[i] < 0x80 {
            out.pointee = UInt16(input[i])
            out += 1
            i += 1
        }
        output.count = out - output.base
        position = i
    }
}
