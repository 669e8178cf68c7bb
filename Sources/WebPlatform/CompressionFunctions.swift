import Deflate
import Engine

/// The native half of `js/web/compression.js`: CompressionStream's and DecompressionStream's
/// contexts over zlib (``ZlibStream``), one call per chunk, the chunk's bytes read in place and the
/// output handed to JS as `Uint8Array`s over the memory zlib wrote.
///
/// What a chunk's call returns: `undefined` when there is no output, a `Uint8Array` for one piece,
/// an array of them for several; a string is the message of the TypeError JS throws (after
/// enqueueing the pieces before it, when it ends an array: data after the end of the compressed
/// stream comes after the output of the data before it). JS makes the TypeError, which is then an
/// instance of the realm's TypeError (one made here would only be named so).
enum CompressionFunctions {
    static var natives: [String: NativeFunctionBody] { [
        "makeCompressor": { args in try makeStream(.compress, args) },
        "makeDecompressor": { args in try makeStream(.decompress, args) },
        "compress": EncodingFunctions.locked(compress),
        "decompress": EncodingFunctions.locked(decompress),
        "finish": EncodingFunctions.locked(finish),
        "end": end,
    ] }

    /// `native.makeCompressor(format)` and `native.makeDecompressor(format)`: a context, held by a
    /// host object, for "deflate", "deflate-raw" or "gzip" (JS has checked the name).
    static func makeStream(_ direction: ZlibStream.Direction, _ args: NativeArguments) throws -> ScriptValue? {
        let name = args.context.stringify(args[0])
        guard let format = ZlibStream.Format(rawValue: name) else {
            throw NativeFunctionError("expected a compression format (\"deflate\", \"deflate-raw\" or \"gzip\"), got \"\(name)\"")
        }
        do {
            return args.context.makeHostObject(try ZlibStream(direction, format: format))
        } catch {
            throw NativeFunctionError(error.message)
        }
    }

    /// `native.compress(context, chunk)`: "compress and enqueue a chunk", the output to enqueue.
    static func compress(_ args: NativeArguments) throws -> ScriptValue? {
        let (stream, context) = try zlibStream(args, .compress)
        let output = context.withBytes(of: args[1]) { bytes -> Result<[ZlibStream.Piece], ZlibStream.Failure> in
            do throws(ZlibStream.Failure) { return .success(try stream.compress(UnsafeRawBufferPointer(bytes), finish: false)) } catch { return .failure(error) }
        }
        guard let output else { throw NativeFunctionError("compress: expected an ArrayBuffer or a typed array") }
        switch output {
        case .success(let pieces): return values(pieces, context)
        case .failure(let failure): return context.string(failure.message)
        }
    }

    /// `native.decompress(context, chunk)`: "decompress and enqueue a chunk", the output to enqueue.
    static func decompress(_ args: NativeArguments) throws -> ScriptValue? {
        let (stream, context) = try zlibStream(args, .decompress)
        let output = context.withBytes(of: args[1]) { bytes -> Result<([ZlibStream.Piece], Bool), ZlibStream.Failure> in
            do throws(ZlibStream.Failure) { return .success(try stream.decompress(UnsafeRawBufferPointer(bytes))) } catch { return .failure(error) }
        }
        guard let output else { throw NativeFunctionError("decompress: expected an ArrayBuffer or a typed array") }
        switch output {
        case .success(let (pieces, trailingData)):
            guard trailingData else { return values(pieces, context) }
            return context.makeArray(count: pieces.count + 1) { index in
                index < pieces.count
                    ? context.makeUint8Array(adopting: pieces[index].memory, count: pieces[index].count)
                    : context.string("The compressed data goes on after the end of its \(stream.format.rawValue) stream (trailing data)")
            }
        case .failure(let failure):
            return context.string(failure.message)
        }
    }

    /// `native.finish(context)`: the flush of either stream. Compression writes the end of the
    /// stream; decompression has nothing left to give, and fails when the data stopped short.
    static func finish(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        guard let stream = context.hostObject(args[0]) as? ZlibStream else {
            throw NativeFunctionError("finish: expected a context made by makeCompressor or makeDecompressor")
        }
        do {
            switch stream.direction {
            case .compress:
                return values(try stream.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true), context)
            case .decompress:
                try stream.finishDecompressing()
                return nil
            }
        } catch {
            return context.string(error.message)
        }
    }

    /// `native.end(context)`: frees zlib's state now (a stream cancelled or errored) rather than at
    /// collection.
    static func end(_ args: NativeArguments) throws -> ScriptValue? {
        (args.context.hostObject(args[0]) as? ZlibStream)?.end()
        return nil
    }

    private static func zlibStream(_ args: NativeArguments, _ direction: ZlibStream.Direction) throws -> (ZlibStream, ScriptContext) {
        guard let stream = args.context.hostObject(args[0]) as? ZlibStream, stream.direction == direction else {
            let maker = direction == .compress ? "makeCompressor" : "makeDecompressor"
            throw NativeFunctionError("expected a context made by \(maker)")
        }
        return (stream, args.context)
    }

    /// undefined, one Uint8Array, or an array of them.
    private static func values(_ pieces: [ZlibStream.Piece], _ context: ScriptContext) -> ScriptValue? {
        switch pieces.count {
        case 0: return nil
        case 1: return context.makeUint8Array(adopting: pieces[0].memory, count: pieces[0].count)
        default: return context.makeArray(count: pieces.count) { context.makeUint8Array(adopting: pieces[$0].memory, count: pieces[$0].count) }
        }
    }
}
