import Engine
import TextEncodings

/// The native half of `js/web/encoding.js`: TextDecoder, TextEncoder, atob and btoa over
/// TextEncodings, reading JS strings' UTF-16 and typed arrays' bytes in place and writing results
/// straight into the memory the new string or `Uint8Array` is made from.
enum EncodingFunctions {
    static var natives: [String: NativeFunctionBody] { [
        "encodingForLabel": encodingForLabel,
        "encodingName": encodingName,
        "decode": locked(decode),
        "makeDecoder": makeDecoder,
        "decodeStream": locked(decodeStream),
        "encode": locked(encode),
        "encodeInto": locked(encodeInto),
        "atob": locked(atob),
        "btoa": locked(btoa),
    ] }

    /// `body` holding the VM's lock throughout: the hot functions make several engine calls each.
    static func locked(_ body: @escaping NativeFunctionBody) -> NativeFunctionBody {
        { args in try args.context.withAPILock { try body(args) } }
    }

    /// Every encoding, by the index JS knows it by.
    static let encodings = TextEncoding.allCases

    /// `native.encodingForLabel(label)`: the index of the label's encoding, or -1.
    static func encodingForLabel(_ args: NativeArguments) throws -> ScriptValue? {
        let label = args.context.stringify(args[0])
        guard let encoding = TextEncoding(label: label), let index = encodings.firstIndex(of: encoding) else {
            return args.context.number(-1)
        }
        return args.context.number(Double(index))
    }

    /// `native.encodingName(index)`: the encoding's name, lowercase, as TextDecoder's `encoding` shows it.
    static func encodingName(_ args: NativeArguments) throws -> ScriptValue? {
        try args.context.string(encoding(args[0], args.context).name.lowercased())
    }

    static func encoding(_ value: ScriptValue, _ context: ScriptContext) throws -> TextEncoding {
        let index = Int(exactly: context.numberValue(value)) ?? -1
        guard encodings.indices.contains(index) else { throw NativeFunctionError("no encoding has the index \(index)") }
        return encodings[index]
    }

    /// A decoder state from TextDecoder's flags (the encoding's index × 4, + 1 fatal, + 2 ignoreBOM).
    static func decoderState(_ flags: ScriptValue, _ context: ScriptContext) throws -> TextDecoderState {
        let value = Int(exactly: context.numberValue(flags)) ?? -1
        guard value >= 0, encodings.indices.contains(value >> 2) else { throw NativeFunctionError("no encoding has the flags \(value)") }
        return TextDecoderState(encoding: encodings[value >> 2], fatal: value & 1 != 0, ignoreBOM: value & 2 != 0)
    }

    /// `native.decode(flags, input)`: one whole decode, a stream of its own. `input` is undefined
    /// (no bytes) or an ArrayBuffer or typed array; anything else gives null, for JS to convert
    /// (a DataView) or refuse. A fatal decoder's error gives false.
    static func decode(_ args: NativeArguments) throws -> ScriptValue? {
        var state = try decoderState(args[0], args.context)
        return try decodeInput(args[1], with: &state, stream: false, args.context)
    }

    /// `native.makeDecoder(flags)`: the state a streaming TextDecoder keeps between calls.
    static func makeDecoder(_ args: NativeArguments) throws -> ScriptValue? {
        args.context.makeHostObject(DecoderBox(try decoderState(args[0], args.context)))
    }

    /// `native.decodeStream(decoder, input, stream)`: TextDecoder's decode() on the kept state; false
    /// for a fatal decoder's error.
    static func decodeStream(_ args: NativeArguments) throws -> ScriptValue? {
        guard let box = args.context.hostObject(args[0]) as? DecoderBox else {
            throw NativeFunctionError("decodeStream: expected a decoder made by makeDecoder")
        }
        return try decodeInput(args[1], with: &box.state, stream: args.context.numberValue(args[2]) != 0, args.context)
    }

    static func decodeInput(_ input: ScriptValue, with state: inout TextDecoderState, stream: Bool, _ context: ScriptContext) throws -> ScriptValue {
        if let decoded = try context.withBytes(of: input, { bytes in try decodeBytes(bytes, with: &state, stream: stream, context) }) {
            return decoded
        }
        guard context.isUndefined(input) else { return context.null }
        return try decodeBytes(UnsafeMutableRawBufferPointer(start: nil, count: 0), with: &state, stream: stream, context)
    }

    static func decodeBytes(_ bytes: UnsafeMutableRawBufferPointer, with state: inout TextDecoderState, stream: Bool,
                       _ context: ScriptContext) throws -> ScriptValue {
        do {
            return try context.makeString(utf16Capacity: state.maximumOutputCount(forInputCount: bytes.count)) { output in
                try state.decode(UnsafeRawBufferPointer(bytes), stream: stream, into: output)
            }
        } catch {
            // A fatal decoder's error: JS throws the TypeError (one made here would be an Error
            // named "TypeError", not an instance of TypeError).
            return context.boolean(false)
        }
    }

    /// `native.encode(string)`: TextEncoder's encode(), a new Uint8Array of the string's UTF-8.
    static func encode(_ args: NativeArguments) throws -> ScriptValue? {
        // Three bytes per unit at most, the rest given back. A pass to measure first costs more
        // than the room: pages never written are never faulted in (MallocPolicy keeps blocks
        // this size in the heap, whose split gives the tail back without a copy).
        args.context.withUTF16(of: args[0]) { units in
            args.context.makeUint8Array(capacity: units.count * 3) { output in UTF8Encoder.encode(units, into: output) }
        }
    }

    /// `native.encodeInto(string, destination, progress)`: TextEncoder's encodeInto(), writing the
    /// UTF-16 units read and the bytes written into `progress`, a Float64Array of two.
    static func encodeInto(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        let (read, written) = context.withUTF16(of: args[0]) { units in
            context.withBytes(of: args[1]) { destination in UTF8Encoder.encode(units, into: destination) } ?? (0, 0)
        }
        _ = context.withBytes(of: args[2]) { progress in
            guard progress.count >= 16 else { return }
            progress.storeBytes(of: Double(read), toByteOffset: 0, as: Double.self)
            progress.storeBytes(of: Double(written), toByteOffset: 8, as: Double.self)
        }
        return nil
    }

    /// `native.atob(string)`: the bytes forgiving-base64 decodes, as a string of code units up to
    /// 0xFF; null when the string is not base64.
    static func atob(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        return context.withUTF16(of: args[0]) { units in
            let capacity = ForgivingBase64.decodedCapacity(forCount: units.count)
            var valid = true
            let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { bytes in
                guard let count = ForgivingBase64.decode(units, into: bytes.baseAddress!) else {
                    valid = false
                    return context.null
                }
                return context.makeString(utf16Capacity: count) { output in
                    for i in 0..<count { output[i] = UInt16(bytes[i]) }
                    return count
                }
            }
            return valid ? text : context.null
        }
    }

    /// `native.btoa(string)`: base64 of the string's code units as bytes; null when one is above 0xFF.
    static func btoa(_ args: NativeArguments) throws -> ScriptValue? {
        let context = args.context
        return context.withUTF16(of: args[0]) { units in
            var valid = true
            let text = context.makeString(utf16Capacity: ForgivingBase64.encodedCount(forByteCount: units.count)) { output in
                guard let count = ForgivingBase64.encode(latin1: units, into: output) else {
                    valid = false
                    return 0
                }
                return count
            }
            return valid ? text : context.null
        }
    }
}

/// A streaming TextDecoder's state, held by its JS object through a host object.
final class DecoderBox {
    var state: TextDecoderState

    init(_ state: TextDecoderState) { self.state = state }
}
