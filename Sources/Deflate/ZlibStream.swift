// The Deflate module: zlib's deflate and inflate as incremental streams in the three framings
// (zlib, raw, gzip), for whoever above needs them: the web platform's CompressionStream and
// DecompressionStream, the servers' compressed answers (HTTPServing). It must know nothing of JS
// or HTTP: bytes in, bytes out, and a failure that says why.
import CZlib
import Glibc

/// One incremental deflate or inflate over zlib, fed chunk by chunk: the context a
/// CompressionStream or DecompressionStream keeps (the Compression Standard's "context"), or a
/// server's compressed answer. Its output is malloc'ed memory handed to the caller in pieces, so
/// that each piece can become a JS `Uint8Array` without a copy. Not thread-safe: one caller at a
/// time (a JS stream's thread, a request's task).
///
/// ```swift
/// let stream = try ZlibStream(.compress, format: .gzip)
/// let pieces = try stream.compress(input, finish: true)   // the whole gzip member
/// for piece in pieces { use(piece.bytes); piece.deallocate() }
/// ```
public final class ZlibStream {
    /// The formats of the Compression Standard, by the name JS passes.
    public enum Format: String, Sendable {
        case deflate
        case deflateRaw = "deflate-raw"
        case gzip

        /// zlib's windowBits for a 32 KB window in this framing.
        public var windowBits: Int32 {
            switch self {
            case .deflate: 15
            case .deflateRaw: -15
            case .gzip: 15 + 16
            }
        }
    }

    public enum Direction: Sendable {
        case compress
        case decompress
    }

    /// Why decompression failed; `message` is the TypeError's.
    public struct Failure: Error {
        public var message: String
    }

    /// Output bytes, from `malloc`: the receiver owns `memory` and frees it (or hands it to a
    /// `Uint8Array`, which does).
    public struct Piece {
        public var memory: UnsafeMutableRawPointer
        public var count: Int

        /// The piece's bytes, valid until ``deallocate()``.
        public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: memory, count: count) }

        /// Frees the piece's memory, for a receiver that copied the bytes rather than adopting them.
        public func deallocate() { free(memory) }
    }

    /// Output grows in pieces of at most this many bytes: an inflate that expands a chunk a
    /// thousandfold gives several arrays rather than one allocation moved at each doubling.
    public static let maximumPieceSize = 1 << 20

    public let direction: Direction
    public let format: Format
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether zlib's state is allocated (until `end()`).
    private var open = false
    /// Decompression: the end of the compressed data has been reached.
    public private(set) var reachedEnd = false

    /// zlib's level 6, as node compresses.
    public init(_ direction: Direction, format: Format, level: Int32 = 6) throws(Failure) {
        self.direction = direction
        self.format = format
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = switch direction {
        case .compress: czlib_deflate_init(stream, level, format.windowBits)
        case .decompress: czlib_inflate_init(stream, format.windowBits)
        }
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Failure(message: "zlib could not start a \(format.rawValue) stream (\(Self.describe(status)))")
        }
        open = true
    }

    deinit {
        end()
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Frees zlib's state (some 256 KB for deflate) now rather than when the collector frees the
    /// JS object holding this: after the last chunk, or an error.
    public func end() {
        guard open else { return }
        open = false
        switch direction {
        case .compress: deflateEnd(stream)
        case .decompress: inflateEnd(stream)
        }
    }

    /// Compresses `input`, and when `finish`, ends the stream with its trailer. The output zlib gave
    /// (often none before the finish: deflate holds input until a block is worth writing).
    public func compress(_ input: UnsafeRawBufferPointer, finish: Bool) throws(Failure) -> [Piece] {
        precondition(direction == .compress)
        guard open else { throw Failure(message: "The compression stream has already finished") }
        var output = PieceWriter(initialCapacity: Int(deflateBound(stream, UInt(input.count))))
        take(input)
        defer { take(UnsafeRawBufferPointer(start: nil, count: 0)) }
        while true {
            output.makeRoom(in: stream)
            let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
            let roomLeft = output.advance(from: stream)
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                output.discard()
                end()
                throw Failure(message: "zlib failed to compress (\(Self.describe(status)))")
            }
            // Without finish, room left over means zlib took all the input and has nothing more to give.
            if !finish && roomLeft { break }
        }
        if finish { end() }
        return output.finish()
    }

    /// Decompresses `input`. Corrupt data throws (its output dropped, as the standard's "if this
    /// results in an error" has it); data after the end of the compressed stream gives the output
    /// before it and `trailingData`.
    public func decompress(_ input: UnsafeRawBufferPointer) throws(Failure) -> (pieces: [Piece], trailingData: Bool) {
        precondition(direction == .decompress)
        if input.count == 0 { return ([], false) }
        if reachedEnd { return ([], true) }
        guard open else { throw Failure(message: "The decompression stream has already failed") }
        let capacity = min(max(input.count * 4, 16 << 10), Self.maximumPieceSize)
        var output = PieceWriter(initialCapacity: capacity)
        take(input)
        defer { take(UnsafeRawBufferPointer(start: nil, count: 0)) }
        while true {
            output.makeRoom(in: stream)
            let status = inflate(stream, Z_NO_FLUSH)
            let roomLeft = output.advance(from: stream)
            switch status {
            case Z_STREAM_END:
                reachedEnd = true
                let trailing = stream.pointee.avail_in > 0
                end()
                return (output.finish(), trailing)
            case Z_OK:
                if !roomLeft { continue }
                return (output.finish(), false)
            case Z_BUF_ERROR:
                // No progress possible: all input taken, waiting for more.
                return (output.finish(), false)
            default:
                let reason = status == Z_NEED_DICT ? "it needs a preset dictionary" : Self.message(of: stream, status)
                output.discard()
                end()
                throw Failure(message: "The compressed data is not valid \(format.rawValue) data: \(reason)")
            }
        }
    }

    /// Decompression's flush: an error unless the compressed data ended.
    public func finishDecompressing() throws(Failure) {
        precondition(direction == .decompress)
        end()
        guard reachedEnd else {
            throw Failure(message: "The compressed data ended before the end of its \(format.rawValue) stream (truncated)")
        }
    }

    /// Points zlib's input at `input` (nothing, once a call is done with it: zlib must not keep a
    /// pointer into a caller's buffer).
    private func take(_ input: UnsafeRawBufferPointer) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
    }

    private static func message(of stream: UnsafeMutablePointer<z_stream>, _ status: Int32) -> String {
        if let text = stream.pointee.msg { return String(cString: text) }
        return describe(status)
    }

    private static func describe(_ status: Int32) -> String {
        switch status {
        case Z_DATA_ERROR: "Z_DATA_ERROR"
        case Z_MEM_ERROR: "out of memory"
        case Z_STREAM_ERROR: "Z_STREAM_ERROR"
        case Z_VERSION_ERROR: "Z_VERSION_ERROR"
        default: "status \(status)"
        }
    }
}

/// The output of one zlib call sequence, written straight into malloc'ed pieces that grow (by
/// doubling, up to ``ZlibStream/maximumPieceSize``) as zlib fills them.
private struct PieceWriter {
    private var pieces: [ZlibStream.Piece] = []
    private var current: UnsafeMutableRawPointer?
    private var capacity = 0
    private var count = 0
    private let initialCapacity: Int

    init(initialCapacity: Int) {
        self.initialCapacity = min(max(initialCapacity, 64), ZlibStream.maximumPieceSize)
    }

    /// Points zlib's output at free room: the current piece's, grown or replaced when it is full.
    mutating func makeRoom(in stream: UnsafeMutablePointer<z_stream>) {
        if current == nil {
            current = Self.allocate(initialCapacity)
            capacity = initialCapacity
        } else if count == capacity {
            if capacity < ZlibStream.maximumPieceSize {
                let grown = min(capacity * 2, ZlibStream.maximumPieceSize)
                current = Self.reallocate(current!, grown)
                capacity = grown
            } else {
                pieces.append(ZlibStream.Piece(memory: current!, count: count))
                current = Self.allocate(capacity)
                count = 0
            }
        }
        stream.pointee.next_out = (current! + count).assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(capacity - count)
    }

    /// Counts what zlib wrote since `makeRoom`; whether it left room unwritten.
    mutating func advance(from stream: UnsafeMutablePointer<z_stream>) -> Bool {
        let roomLeft = stream.pointee.avail_out > 0
        count = capacity - Int(stream.pointee.avail_out)
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        return roomLeft
    }

    /// The pieces, the last one shrunk to what it holds.
    mutating func finish() -> [ZlibStream.Piece] {
        if let memory = current {
            if count == 0 {
                free(memory)
            } else {
                let kept = count < capacity ? realloc(memory, count) ?? memory : memory
                pieces.append(ZlibStream.Piece(memory: kept, count: count))
            }
            current = nil
        }
        defer { pieces = [] }
        return pieces
    }

    mutating func discard() {
        for piece in finish() { free(piece.memory) }
    }

    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard let memory = malloc(size) else { fatalError("out of memory: \(size) bytes for compressed output") }
        return memory
    }

    private static func reallocate(_ memory: UnsafeMutableRawPointer, _ size: Int) -> UnsafeMutableRawPointer {
        guard let grown = realloc(memory, size) else { fatalError("out of memory: \(size) bytes for compressed output") }
        return grown
    }
}
