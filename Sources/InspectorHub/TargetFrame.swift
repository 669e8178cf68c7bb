/// One message between JavaScriptCore's remote inspector and its hub, as WTF's GLib
/// `SocketConnection` frames it: a big-endian u32 size of what follows the flags byte, a u8 of
/// flags (bit 0: the body is little-endian), the message's name ending in NUL, then its
/// parameters as a serialized GVariant.
///
/// Only the messages a hub exchanges with a JavaScript target are read or made here:
/// `SetTargetList (a(tsssb)b)` and `SendMessageToFrontend (ts)` from the target;
/// `GetTargetList`, `Setup (t)`, `SendMessageToTarget (ts)` and `FrontendDidClose (t)` to it.
struct TargetFrame: Equatable, Sendable {
    var name: String
    var body: [UInt8]
    var littleEndian = true

    /// A target listed by `SetTargetList`.
    struct Listing: Equatable, Sendable {
        var id: UInt64
        var type: String
        var name: String
    }

    enum Failure: Error, Equatable {
        case oversized(Int)
        case malformed(String)
    }

    /// Frames larger than this are refused (the target's whole message, such as a large object's
    /// properties, travels in one frame).
    static let maximumSize = 256 << 20

    // MARK: - Reading

    /// Takes the first whole frame off `buffer`; nil when more bytes are needed.
    static func take(from buffer: inout [UInt8]) throws(Failure) -> TargetFrame? {
        guard buffer.count >= 5 else { return nil }
        let size = Int(buffer[0]) << 24 | Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
        guard size <= maximumSize else { throw .oversized(size) }
        guard buffer.count >= 5 + size else { return nil }
        let flags = buffer[4]
        let content = buffer[5..<(5 + size)]
        guard let nul = content.firstIndex(of: 0) else { throw .malformed("a message name without its NUL") }
        let name = String(decoding: content[content.startIndex..<nul], as: UTF8.self)
        let frame = TargetFrame(name: name, body: Array(content[(nul + 1)...]), littleEndian: flags & 1 == 1)
        buffer.removeFirst(5 + size)
        return frame
    }

    /// `(ts)`: a target id and a string (`SendMessageToFrontend`).
    func idAndText() throws(Failure) -> (UInt64, String) {
        guard body.count >= 9 else { throw .malformed("\(name): expected (ts), got \(body.count) bytes") }
        let id = integer(at: 0)
        var end = body.count
        if body[end - 1] == 0 { end -= 1 }
        return (id, String(decoding: body[8..<end], as: UTF8.self))
    }

    /// `(a(tsssb)b)`: the targets listed, in order.
    func listings() throws(Failure) -> [Listing] {
        guard !body.isEmpty else { return [] }
        // The tuple frames its one variable-sized member that is not last (the array) with an
        // offset at its very end: where the array ends.
        let tupleOffsetSize = Self.offsetSize(forContainerOf: body.count)
        guard body.count >= tupleOffsetSize + 1 else { throw .malformed("SetTargetList: \(body.count) bytes") }
        let arrayEnd = offset(at: body.count - tupleOffsetSize, size: tupleOffsetSize)
        guard arrayEnd <= body.count - tupleOffsetSize - 1 else { throw .malformed("SetTargetList: an array ending at \(arrayEnd)") }
        guard arrayEnd > 0 else { return [] }
        // An array of variable-sized elements ends with each element's end offset.
        let elementOffsetSize = Self.offsetSize(forContainerOf: arrayEnd)
        let lastEnd = offset(at: arrayEnd - elementOffsetSize, size: elementOffsetSize)
        guard lastEnd <= arrayEnd, (arrayEnd - lastEnd) % elementOffsetSize == 0 else {
            throw .malformed("SetTargetList: array framing")
        }
        let count = (arrayEnd - lastEnd) / elementOffsetSize
        var listings: [Listing] = []
        var start = 0
        for index in 0..<count {
            let end = offset(at: lastEnd + index * elementOffsetSize, size: elementOffsetSize)
            guard end >= start + 8, end <= lastEnd else { throw .malformed("SetTargetList: element \(index)") }
            // (tsssb): the id at the start (8-aligned), then NUL-terminated strings.
            let id = integer(at: start)
            var cursor = start + 8
            var strings: [String] = []
            while strings.count < 2, cursor < end, let nul = body[cursor..<end].firstIndex(of: 0) {
                strings.append(String(decoding: body[cursor..<nul], as: UTF8.self))
                cursor = nul + 1
            }
            guard strings.count == 2 else { throw .malformed("SetTargetList: element \(index)'s strings") }
            listings.append(Listing(id: id, type: strings[0], name: strings[1]))
            start = (end + 7) & ~7
        }
        return listings
    }

    private func integer(at position: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in 0..<8 {
            let index = littleEndian ? position + 7 - byte : position + byte
            value = value << 8 | UInt64(body[index])
        }
        return value
    }

    private func offset(at position: Int, size: Int) -> Int {
        var value = 0
        for byte in 0..<size {
            let index = littleEndian ? position + size - 1 - byte : position + byte
            value = value << 8 | Int(body[index])
        }
        return value
    }

    /// GVariant's framing offsets are as wide as the container they frame needs.
    static func offsetSize(forContainerOf size: Int) -> Int {
        switch size {
        case ..<0x100: 1
        case ..<0x10000: 2
        case ..<0x1_0000_0000: 4
        default: 8
        }
    }

    // MARK: - Making

    /// `Setup`, `FrontendDidClose`: `(t)`.
    static func withID(_ name: String, _ id: UInt64) -> TargetFrame {
        TargetFrame(name: name, body: littleEndianBytes(id))
    }

    /// `SendMessageToTarget`: `(ts)`.
    static func withIDAndText(_ name: String, _ id: UInt64, _ text: String) -> TargetFrame {
        TargetFrame(name: name, body: littleEndianBytes(id) + Array(text.utf8) + [0])
    }

    /// `GetTargetList`: no parameters.
    static func bare(_ name: String) -> TargetFrame {
        TargetFrame(name: name, body: [])
    }

    var bytes: [UInt8] {
        let size = name.utf8.count + 1 + body.count
        var bytes: [UInt8] = [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16),
                              UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size), littleEndian ? 1 : 0]
        bytes.reserveCapacity(5 + size)
        bytes += name.utf8
        bytes.append(0)
        bytes += body
        return bytes
    }

    private static func littleEndianBytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
