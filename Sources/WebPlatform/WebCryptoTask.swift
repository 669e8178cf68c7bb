import Engine
import Foundation

/// One SubtleCrypto operation's native work and how its promise hears the outcome. Small inputs
/// run inline (a thread hop costs more than the work); larger ones run on a detached task while
/// the engine is held, and the outcome is posted back to the JS thread, where `settle(value)` or
/// `settle(undefined, name, message)` resolves or rejects the promise JS made.
enum WebCryptoTask {
    /// Inputs up to this many bytes are worked on inline.
    static let inlineLimit = 16 * 1024

    /// What an operation gives JS.
    enum Outcome: Sendable {
        case bytes([UInt8])
        /// Bytes a library returned as `Data` (a cipher's output), handed to JS without a copy.
        case data(Data)
        case boolean(Bool)
        case key(WebCryptoKeyHandle)
        case keyPair(privateKey: WebCryptoKeyHandle, publicKey: WebCryptoKeyHandle)

        func value(in context: ScriptContext) -> ScriptValue {
            switch self {
            case .bytes(let bytes): WebCryptoTask.uint8Array(bytes, context)
            case .data(let data): WebCryptoTask.uint8Array(sharing: data, context)
            case .boolean(let value): context.boolean(value)
            case .key(let handle): context.makeHostObject(handle)
            case .keyPair(let privateKey, let publicKey):
                pair(context.makeHostObject(privateKey), context.makeHostObject(publicKey), context)
            }
        }

        private func pair(_ privateKey: ScriptValue, _ publicKey: ScriptValue, _ context: ScriptContext) -> ScriptValue {
            let object = context.makeObject()
            context.set(object, "privateKey", privateKey)
            context.set(object, "publicKey", publicKey)
            return object
        }
    }

    /// The settle function, kept alive (protected) while the work runs; touched on the JS thread only.
    // @unchecked: `function` is immutable, and the ScriptObject is used (called, unprotected) only inside `engine.post`, on the JS thread.
    final class Settle: @unchecked Sendable {
        let function: ScriptObject

        init(_ function: ScriptObject) {
            self.function = function
        }
    }

    /// Runs `work` inline when `inline` (returning its outcome, or throwing its error for JS to
    /// reject with), else off the JS thread, returning undefined: `args[settleIndex]` hears the outcome.
    static func run(_ args: NativeArguments, settle settleIndex: Int, inline: Bool,
                    _ work: @escaping @Sendable () throws(WebCryptoError) -> Outcome) throws -> ScriptValue? {
        let context = args.context
        guard !inline, let engine = context.engine, let function = context.object(args[settleIndex]) else {
            do {
                return try work().value(in: context)
            } catch {
                throw NativeFunctionError(error.message, name: error.name)
            }
        }
        context.protect(function)
        engine.hold()
        let settle = Settle(function)
        Task.detached {
            let result: Result<Outcome, WebCryptoError>
            do throws(WebCryptoError) { result = .success(try work()) } catch { result = .failure(error) }
            engine.post { context in
                defer {
                    context.unprotect(settle.function)
                    engine.release()
                }
                switch result {
                case .success(let outcome):
                    _ = try? context.call(settle.function, [outcome.value(in: context)])
                case .failure(let error):
                    // Each string in a local while the next is made: the collector sees the stack,
                    // not an array literal's heap buffer.
                    let name = context.string(error.name), message = context.string(error.message)
                    _ = try? context.call(settle.function, [context.undefined, name, message])
                }
            }
        }
        return context.undefined
    }

    /// Outputs up to this many bytes are copied rather than shared: a small `Data` may hold its
    /// bytes inline, where no pointer to them outlives the call that lends it.
    static let sharingThreshold = 1024

    /// A `Data` kept alive by the Uint8Array over its bytes.
    private final class DataOwner {
        let data: Data

        init(_ data: Data) {
            self.data = data
        }
    }

    /// A new Uint8Array over the bytes of `data`, which it keeps: a megabyte of ciphertext is not
    /// copied again on its way to JS. `data` is never mutated after this, so its heap storage
    /// stays where it is.
    static func uint8Array(sharing data: Data, _ context: ScriptContext) -> ScriptValue {
        guard data.count > sharingThreshold else { return uint8Array([UInt8](data), context) }
        let owner = DataOwner(data)
        return owner.data.withUnsafeBytes { context.makeUint8Array(over: $0, keeping: owner) }
    }

    /// A new Uint8Array holding a copy of `bytes`.
    static func uint8Array(_ bytes: [UInt8], _ context: ScriptContext) -> ScriptValue {
        context.makeUint8Array(capacity: bytes.count) { output in
            bytes.withUnsafeBufferPointer { output.update(from: $0.baseAddress!, count: $0.count) }
            return bytes.count
        }
    }
}
