/// A decoder for one stream of bytes, as TextDecoder holds one: an encoding's decoder instance
/// with its error mode, the BOM handling of TextDecoder ("ignore BOM", "BOM seen") and its
/// streaming ("do not flush"), so that bytes split across calls decode as they would in one.
///
/// ```swift
/// var decoder = TextDecoderState(encoding: .shiftJIS)
/// var text = try decoder.decode([0x82], stream: true)  // nothing yet: half a character
/// text += try decoder.decode([0xA0])                    // "ぁ"
/// ```
public struct TextDecoderState: Sendable {
    public let encoding: TextEncoding
    /// Error mode "fatal": the first error throws instead of becoming U+FFFD.
    public let fatal: Bool
    /// Whether a leading byte order mark is kept in the output (UTF-8 and UTF-16 only).
    public let ignoreBOM: Bool

    private var machine: DecoderMachine
    private var bomSeen = false
    private var doNotFlush = false
    /// Bytes a fatal error left unread in a streaming call: the standard's queue keeps them, so the
    /// next streaming call reads them first.
    private var unread: [UInt8] = []

    public init(encoding: TextEncoding, fatal: Bool = false, ignoreBOM: Bool = false) {
        self.encoding = encoding
        self.fatal = fatal
        self.ignoreBOM = ignoreBOM
        machine = DecoderMachine(encoding)
    }

    /// Room ``decode(_:stream:into:)`` needs for `count` bytes: at most one UTF-16 unit per byte,
    /// plus what the bytes held from earlier calls may still produce.
    public func maximumOutputCount(forInputCount count: Int) -> Int { count + unread.count + 8 }

    /// TextDecoder's `decode(input, { stream })`: decodes `input` after whatever earlier streaming
    /// calls left, into `output` (at least ``maximumOutputCount(forInputCount:)`` units), and
    /// returns how many units it wrote. Without `stream` the stream ends here: an incomplete
    /// sequence at the end is an error, and the next call starts a new stream.
    public mutating func decode(_ input: UnsafeRawBufferPointer, stream: Bool,
                                into output: UnsafeMutablePointer<UInt16>) throws(TextDecodingError) -> Int {
        if !doNotFlush {
            machine = DecoderMachine(encoding)
            unread = []
            bomSeen = false
        }
        doNotFlush = stream
        var out = UTF16Output(base: output)
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        if !unread.isEmpty {
            // Bytes left by an error come first; they are decoded without their end being the end.
            let pending = unread + Array(bytes)
            unread = []
            try pending.withUnsafeBufferPointer { buffer in
                Result { () throws(TextDecodingError) in try run(ByteQueue(buffer), into: &out, flush: !stream) }
            }.get()
        } else {
            try run(ByteQueue(bytes), into: &out, flush: !stream)
        }
        return strippingBOM(output, count: out.count)
    }

    /// Decodes `input` after whatever earlier streaming calls left: ``decode(_:stream:into:)`` with
    /// an array for the output.
    public mutating func decode(_ input: [UInt8], stream: Bool = false) throws(TextDecodingError) -> [UInt16] {
        let capacity = maximumOutputCount(forInputCount: input.count)
        var result = [UInt16](repeating: 0, count: capacity)
        // withUnsafeBytes rethrows untyped errors: the result crosses it as a value.
        let outcome = input.withUnsafeBytes { bytes in
            result.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(TextDecodingError) -> Int in try decode(bytes, stream: stream, into: buffer.baseAddress!) }
            }
        }
        result.removeSubrange(try outcome.get()...)
        return result
    }

    /// Decodes `input` after whatever earlier streaming calls left, as a `String`.
    public mutating func decode(_ input: [UInt8], stream: Bool = false) throws(TextDecodingError) -> String {
        let units: [UInt16] = try decode(input, stream: stream)
        return String(decoding: units, as: UTF16.self)
    }

    private mutating func run(_ queue: ByteQueue, into out: inout UTF16Output, flush: Bool) throws(TextDecodingError) {
        var queue = queue
        guard machine.decode(&queue, into: &out, fatal: fatal, flush: flush) else {
            // The error is thrown; what the queue still holds is read first by the next call, when
            // this one was streaming (a final call starts the next one afresh anyway).
            if !flush { unread = queue.unread }
            throw TextDecodingError(encoding: encoding)
        }
    }

    /// "Serialize I/O queue": the first scalar of a UTF-8 or UTF-16 stream is dropped when it is a
    /// byte order mark, unless ignore BOM.
    private mutating func strippingBOM(_ output: UnsafeMutablePointer<UInt16>, count: Int) -> Int {
        guard count > 0, !bomSeen, !ignoreBOM else { return count }
        switch encoding {
        case .utf8, .utf16LE, .utf16BE: break
        default: return count
        }
        bomSeen = true
        guard output[0] == 0xFEFF else { return count }
        UnsafeMutableRawPointer(output).copyMemory(from: output + 1, byteCount: (count - 1) * 2)
        return count - 1
    }
}

/// One decoder instance of each kind, chosen once per stream.
enum DecoderMachine: Sendable {
    case utf8(UTF8Decoder)
    case utf16(UTF16Decoder)
    case singleByte(SingleByteDecoder)
    case gb18030(GB18030Decoder)
    case big5(Big5Decoder)
    case eucJP(EUCJPDecoder)
    case iso2022JP(ISO2022JPDecoder)
    case shiftJIS(ShiftJISDecoder)
    case eucKR(EUCKRDecoder)
    case replacement(ReplacementDecoder)

    init(_ encoding: TextEncoding) {
        switch encoding {
        case .utf8: self = .utf8(UTF8Decoder())
        case .utf16LE: self = .utf16(UTF16Decoder(bigEndian: false))
        case .utf16BE: self = .utf16(UTF16Decoder(bigEndian: true))
        case .gbk, .gb18030: self = .gb18030(GB18030Decoder())
        case .big5: self = .big5(Big5Decoder())
        case .eucJP: self = .eucJP(EUCJPDecoder())
        case .iso2022JP: self = .iso2022JP(ISO2022JPDecoder())
        case .shiftJIS: self = .shiftJIS(ShiftJISDecoder())
        case .eucKR: self = .eucKR(EUCKRDecoder())
        case .replacement: self = .replacement(ReplacementDecoder())
        case .xUserDefined: self = .singleByte(.xUserDefined)
        default: self = .singleByte(SingleByteDecoder(index: encoding.singleByteIndex!))
        }
    }

    /// Runs the decoder over the queue; false when a fatal decoder met an error.
    mutating func decode(_ queue: inout ByteQueue, into out: inout UTF16Output, fatal: Bool, flush: Bool) -> Bool {
        switch self {
        case .utf8(var decoder):
            defer { self = .utf8(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .utf16(var decoder):
            defer { self = .utf16(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .singleByte(let decoder):
            return decoder.decode(&queue, into: &out, fatal: fatal)
        case .gb18030(var decoder):
            defer { self = .gb18030(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .big5(var decoder):
            defer { self = .big5(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .eucJP(var decoder):
            defer { self = .eucJP(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .iso2022JP(var decoder):
            defer { self = .iso2022JP(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .shiftJIS(var decoder):
            defer { self = .shiftJIS(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .eucKR(var decoder):
            defer { self = .eucKR(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal, flush: flush)
        case .replacement(var decoder):
            defer { self = .replacement(decoder) }
            return decoder.decode(&queue, into: &out, fatal: fatal)
        }
    }
}
