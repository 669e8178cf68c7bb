import CJavaScriptCore

/// The arguments of one call from JS into a native function. Valid only during that call.
public struct NativeArguments {
    public let context: ScriptContext
    public let this: JSObjectRef?
    let values: UnsafePointer<JSValueRef?>?
    public let count: Int

    /// The argument at `index`, or `undefined` past the end.
    public subscript(index: Int) -> JSValueRef {
        guard index < count, let values, let value = values[index] else { return context.undefined }
        return value
    }
}

/// What a native function may throw: the message becomes a JS `TypeError` (or the given name).
public struct NativeFunctionError: Error {
    public var name: String
    public var message: String
    public init(_ message: String, name: String = "TypeError") {
        self.name = name
        self.message = message
    }
}

public typealias NativeFunctionBody = (NativeArguments) throws -> JSValueRef?

/// Swift closures as JS functions: one JSClass whose instances carry their closure as private data.
final class NativeFunctionBox {
    let body: NativeFunctionBody
    unowned let context: ScriptContext

    init(body: @escaping NativeFunctionBody, context: ScriptContext) {
        self.body = body
        self.context = context
    }

    nonisolated(unsafe) static let jsClass: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = ("NativeFunction" as StaticString).utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) { $0 }
        definition.callAsFunction = { _, function, this, count, arguments, exception in
            guard let function, let raw = JSObjectGetPrivate(function) else { return nil }
            let box = Unmanaged<NativeFunctionBox>.fromOpaque(raw).takeUnretainedValue()
            let context = box.context
            do {
                let args = NativeArguments(context: context, this: this, values: arguments, count: count)
                return try box.body(args) ?? context.undefined
            } catch let thrown as ThrownJSValue {
                exception?.pointee = thrown.value
            } catch let error as NativeFunctionError {
                exception?.pointee = context.makeError(name: error.name, message: error.message)
            } catch let error as ScriptError {
                exception?.pointee = context.makeError(name: error.name, message: error.message)
            } catch {
                exception?.pointee = context.makeError(name: "Error", message: String(describing: error))
            }
            return context.undefined
        }
        definition.finalize = { object in
            guard let raw = JSObjectGetPrivate(object) else { return }
            Unmanaged<NativeFunctionBox>.fromOpaque(raw).release()
        }
        return JSClassCreate(&definition)
    }()
}
