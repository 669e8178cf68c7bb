import CJavaScriptCore
import JSON

// Conversion between JS values and JSONValue, without Foundation: the bridge's hot path. Every
// JavaScriptCore call takes the VM lock, which is most of a small value's cost, so a long array
// going to native, and an object or array of more than a few values coming from it, crosses as
// JSON text, written or parsed by the engine in one call; the rest is made or walked call by call.

extension ScriptContext {
    /// Converts a JS value, as `JSON.stringify` would see it, except that `Uint8Array` and
    /// `ArrayBuffer` become ``JSONValue/bytes(_:)``. Functions, symbols and `undefined` inside
    /// objects are skipped (inside arrays they become null); `NaN` and the infinities become null;
    /// a `Date` becomes its ISO string. An array of 16 or more elements is converted by
    /// JavaScriptCore's own `JSON.stringify` where it holds no bytes: there `toJSON` methods run,
    /// inherited enumerable properties are left out and `-0` becomes `0`, as `JSON.stringify` does.
    /// (Only an array: its length is known before it is written out, and an object may hold a
    /// sparse array that takes seconds and gigabytes to write as text, which the walk refuses at
    /// once.)
    ///
    /// Refuses nesting deeper than 256, values over 16 MiB, lone surrogates and BigInts, naming the
    /// JSON Pointer of the offending value.
    public func jsonValue(from value: JSValueRef) throws(ValueConversionError) -> JSONValue {
        var walker = JSValueWalker(context: self)
        return try walker.convert(value, depth: 0)
    }

    /// `value` written as JSON text by JavaScriptCore in one call and parsed here: what the walk
    /// does with a long array, where it would make a dozen engine calls per element. Nil when the
    /// text cannot stand for the value or its limits are near, and the walk decides: bytes (a
    /// typed array or `ArrayBuffer`, whose `toJSON` guard throws while this runs), a BigInt, a
    /// cycle, a lone surrogate, more than `maximumBytes` of text or `maximumDepth` levels.
    func jsonTextValue(of value: JSValueRef, maximumBytes: Int, maximumDepth: Int) -> (JSONValue, Int)? {
        guard maximumDepth > 0 else { return nil }
        // Restored rather than cleared: a getter in `value` may cross the bridge itself, and the
        // conversion of its params must not switch this one's guard off.
        let outer = bytesGuard.value
        bytesGuard.store(1)
        let json = JSValueCreateJSONString(ref, value, 0, nil)
        bytesGuard.store(outer)
        guard let json else { return nil }
        defer { JSStringRelease(json) }
        return parsedJSON(json, maximumBytes: maximumBytes, maximumDepth: maximumDepth)
    }

    /// `text`, a JS string holding JSON that JS wrote itself (`JSON.stringify`), parsed here: a
    /// runtime client's params in a few engine calls instead of a walk. Nil when it is not a
    /// string of JSON within the limits; the caller then walks the value the text was made of.
    public func jsonValue(fromJSONText text: JSValueRef) -> JSONValue? {
        guard JSValueIsString(ref, text), let json = JSValueToStringCopy(ref, text, nil) else { return nil }
        defer { JSStringRelease(json) }
        return parsedJSON(json, maximumBytes: JSValueLimits.maximumBytes, maximumDepth: JSValueLimits.maximumDepth)?.0
    }

    private func parsedJSON(_ json: JSStringRef, maximumBytes: Int, maximumDepth: Int) -> (JSONValue, Int)? {
        let length = JSStringGetLength(json)
        guard length > 0, length <= maximumBytes, let characters = JSStringGetCharactersPtr(json),
              var text = UTF16Transcoder.string(UnsafeBufferPointer(start: characters, count: length), repair: false) else { return nil }
        guard let parsed = text.withUTF8({ try? JSONParser.parse($0, maximumDepth: maximumDepth) }) else { return nil }
        return (parsed, length)
    }

    /// Makes a JS value from JSON text (UTF-8), parsed by JavaScriptCore in one call: for text a
    /// service already holds (a stored row), with no ``JSONValue`` built in between. As
    /// `JSON.parse`: a `"__proto__"` key is data. Nil when the text is not JSON.
    public func jsValue(fromJSONText utf8: [UInt8]) -> JSValueRef? {
        guard let string = UTF16Transcoder.makeJSString(utf8: utf8) else { return nil }
        defer { JSStringRelease(string) }
        return JSValueMakeFromJSONString(ref, string)
    }

    /// Makes a JS value; objects get their keys in order, `bytes` become a `Uint8Array`.
    ///
    /// An object or array of ``textNodes`` values or more (a bridge answer: a response with its
    /// headers and timing, a page of rows) is written as JSON text and made by JavaScriptCore in
    /// one call, which costs less than the two or three engine calls each value takes made one by
    /// one. Bytes directly in such an object are written as null and set once it is made; anything
    /// JSON text cannot say as it is (bytes deeper down, -0, NaN, the infinities) makes the value
    /// call by call.
    public func jsValue(from value: JSONValue) -> JSValueRef {
        if let made = madeFromText(value) { return made }
        return madeByCalls(value)
    }

    /// From this many values on, ``jsValue(from:)`` makes an object or array from JSON text.
    static let textNodes = 8

    private func madeFromText(_ value: JSONValue) -> JSValueRef? {
        // Bytes directly in an object are written as null, their keys keeping their places.
        var written = value
        var bytesMembers: [(key: String, value: JSONValue)] = []
        if case .object(var object) = value {
            bytesMembers = object.members.filter { $0.value.bytesValue != nil }
            for member in bytesMembers { object[member.key] = .null }
            if !bytesMembers.isEmpty { written = .object(object) }
        }
        guard let nodes = Self.textNodeCount(written, depth: 0), nodes >= Self.textNodes,
              let made = jsValue(fromJSONText: JSONWriter.bytes(written)) else { return nil }
        if !bytesMembers.isEmpty {
            guard let result = JSValueToObject(ref, made, nil) else { return nil }
            for member in bytesMembers { defineOwn(result, member.key, madeByCalls(member.value)) }
        }
        return made
    }

    /// How many values `value` holds, itself included, when JSON text says each as it is; nil when
    /// it holds bytes, -0, NaN or an infinity, or nests deeper than the engine's JSON parser goes
    /// without a fallback of its own.
    private static func textNodeCount(_ value: JSONValue, depth: Int) -> Int? {
        switch value {
        case .null, .bool, .string: return 1
        case .number(let n): return n.isFinite && !(n == 0 && n.sign == .minus) ? 1 : nil
        case .bytes: return nil
        case .array(let elements): return textNodeCount(of: elements, depth: depth)
        case .object(let object): return textNodeCount(of: object.members.lazy.map(\.value), depth: depth)
        }
    }

    private static func textNodeCount(of values: some Sequence<JSONValue>, depth: Int) -> Int? {
        guard depth < 64 else { return nil }
        var nodes = 1
        for value in values {
            guard let count = textNodeCount(value, depth: depth + 1) else { return nil }
            nodes += count
        }
        return nodes
    }

    private func madeByCalls(_ value: JSONValue) -> JSValueRef {
        switch value {
        case .null: return null
        case .bool(let b): return JSValueMakeBoolean(ref, b)
        case .number(let n): return JSValueMakeNumber(ref, n)
        case .string(let s): return string(s)
        case .array(let elements):
            // Each element goes into the array as soon as it is made. Gathered in a Swift array
            // first, the elements were held in memory the collector does not scan, and a
            // collection while the next one was made freed them (the soak found it).
            guard let array = JSObjectMakeArray(ref, 0, nil, nil) else { return undefined }
            for (index, element) in elements.enumerated() {
                JSObjectSetPropertyAtIndex(ref, array, UInt32(index), madeByCalls(element), nil)
            }
            return array
        case .object(let object):
            let result = makeObject()
            for member in object.members { defineOwn(result, member.key, madeByCalls(member.value)) }
            return result
        case .bytes(let bytes):
            return makeUint8Array(copying: bytes)
        }
    }
}

/// One walk over a JS value; keeps the path and the byte budget.
struct JSValueWalker {
    /// From this many elements on, an array is converted through JSON text (``ScriptContext/jsonTextValue(of:maximumBytes:maximumDepth:)``).
    static let textArrayLength = 16

    let context: ScriptContext
    var bytes = 0
    /// Keys and indices from the root to the value being converted, for error paths only.
    var path: [PathStep] = []

    enum PathStep {
        case key(String)
        case index(Int)
    }

    init(context: ScriptContext) { self.context = context }

    func failure(_ kind: ValueConversionError.Kind) -> ValueConversionError {
        var pointer = ""
        for step in path {
            switch step {
            case .key(let key): pointer = JSONPointer.appending(pointer, key: key)
            case .index(let index): pointer = JSONPointer.appending(pointer, index: index)
            }
        }
        return ValueConversionError(kind: kind, path: pointer)
    }

    mutating func charge(_ count: Int) throws(ValueConversionError) {
        bytes &+= count
        if bytes > JSValueLimits.maximumBytes { throw failure(.tooLarge) }
    }

    /// nil for values JSON.stringify omits (undefined, functions, symbols).
    mutating func convertOrSkip(_ value: JSValueRef, depth: Int) throws(ValueConversionError) -> JSONValue? {
        let type = JSValueGetType(context.ref, value)
        if type == kJSTypeUndefined || type == kJSTypeSymbol { return nil }
        return try convert(value, type: type, depth: depth, skippingFunctions: true)
    }

    mutating func convert(_ value: JSValueRef, depth: Int) throws(ValueConversionError) -> JSONValue {
        try convert(value, type: JSValueGetType(context.ref, value), depth: depth, skippingFunctions: false) ?? .null
    }

    /// One API call per question: every JavaScriptCore call takes the VM lock, which is most of a
    /// small value's cost.
    mutating func convert(_ value: JSValueRef, type: JSType, depth: Int, skippingFunctions: Bool) throws(ValueConversionError) -> JSONValue? {
        let ctx = context.ref
        switch type {
        case kJSTypeNull, kJSTypeUndefined:
            try charge(4)
            return .null
        case kJSTypeBoolean:
            try charge(4)
            return .bool(JSValueToBoolean(ctx, value))
        case kJSTypeNumber:
            try charge(8)
            let number = JSValueToNumber(ctx, value, nil)
            return number.isFinite ? .number(number) : .null
        case kJSTypeString:
            guard let string = JSValueToStringCopy(ctx, value, nil) else { return .string("") }
            defer { JSStringRelease(string) }
            return .string(try convertString(string))
        case kJSTypeSymbol:
            throw failure(.unsupported("a symbol"))
        case kJSTypeBigInt:
            throw failure(.unsupported("a BigInt"))
        default:
            return try convertObject(value, depth: depth, skippingFunctions: skippingFunctions)
        }
    }

    mutating func convertString(_ string: JSStringRef) throws(ValueConversionError) -> String {
        let length = JSStringGetLength(string)
        try charge(length + 2)
        guard length > 0, let characters = JSStringGetCharactersPtr(string) else { return "" }
        guard let text = UTF16Transcoder.string(UnsafeBufferPointer(start: characters, count: length), repair: false) else {
            throw failure(.loneSurrogate)
        }
        return text
    }

    mutating func convertObject(_ value: JSValueRef, depth: Int, skippingFunctions: Bool) throws(ValueConversionError) -> JSONValue? {
        let ctx = context.ref
        guard depth < JSValueLimits.maximumDepth else { throw failure(.tooDeep) }
        guard let object = JSValueToObject(ctx, value, nil) else { return .null }

        let typedArrayType = JSValueGetTypedArrayType(ctx, value, nil)
        if typedArrayType != kJSTypedArrayTypeNone {
            return try convertBinary(object, type: typedArrayType)
        }
        if JSValueIsArray(ctx, value) {
            let length = Int(JSValueToNumber(ctx, JSObjectGetProperty(ctx, object, context.propertyName("length"), nil), nil))
            // Its text is at least "[", "]", a byte per element and a comma between two, so the
            // length alone may refuse the array before anything is written out: a sparse
            // `new Array(2 ** 32 - 1)` costs nothing to make, and seconds and gigabytes to write as text.
            let least = length == 0 ? 2 : 2 * length + 1
            if bytes &+ least > JSValueLimits.maximumBytes { throw failure(.tooLarge) }
            // The brackets and the commas; the walk below charges each element.
            try charge(2 + length)
            // A long array (records to insert, items to set) crosses as JSON text: one engine call
            // instead of a dozen per element. One level short of the limit, so the walk decides there.
            if length >= Self.textArrayLength,
               let (converted, size) = context.jsonTextValue(of: value, maximumBytes: JSValueLimits.maximumBytes - bytes + 2 + length,
                                                             maximumDepth: JSValueLimits.maximumDepth - depth - 1) {
                try charge(size - 2 - length)
                return converted
            }
            var elements = [JSONValue]()
            elements.reserveCapacity(length)
            for index in 0..<length {
                path.append(.index(index))
                var thrown: JSValueRef?
                let element = JSObjectGetPropertyAtIndex(ctx, object, UInt32(index), &thrown) ?? context.undefined
                if let thrown { throw failure(.threw(context.stringify(thrown))) }
                elements.append(try convertOrSkip(element, depth: depth + 1) ?? .null)
                path.removeLast()
            }
            return .array(elements)
        }
        if JSValueIsDate(ctx, value) {
            let toISOString = JSObjectGetProperty(ctx, object, context.propertyName("toISOString"), nil)
            if let toISOString, let function = JSValueToObject(ctx, toISOString, nil),
               let iso = JSObjectCallAsFunction(ctx, function, object, 0, nil, nil), JSValueIsString(ctx, iso) {
                return .string(context.stringify(iso))
            }
            return .null
        }
        if JSObjectIsFunction(ctx, object) { return skippingFunctions ? nil : .null }

        let names = JSObjectCopyPropertyNames(ctx, object)!
        defer { JSPropertyNameArrayRelease(names) }
        // Listing keys takes no exception argument, so what a Proxy's `ownKeys` trap throws stays
        // pending, and the next call that looks would take it for its own: look now.
        var thrown: JSValueRef?
        _ = JSValueToObject(ctx, value, &thrown)
        if let thrown {
            throw failure(.unsupported("an object whose own keys cannot be listed (\(context.stringify(thrown)))"))
        }
        let count = JSPropertyNameArrayGetCount(names)
        try charge(2)
        var members = JSONObject(minimumCapacity: count)
        for i in 0..<count {
            let name = JSPropertyNameArrayGetNameAtIndex(names, i)!
            let key = try convertString(name)
            path.append(.key(key))
            var thrown: JSValueRef?
            let member = JSObjectGetProperty(ctx, object, name, &thrown) ?? context.undefined
            if let thrown { throw failure(.threw(context.stringify(thrown))) }
            if let converted = try convertOrSkip(member, depth: depth + 1) {
                members.appendUnique(key, converted)
            }
            path.removeLast()
        }
        return .object(members)
    }

    mutating func convertBinary(_ object: JSObjectRef, type: JSTypedArrayType) throws(ValueConversionError) -> JSONValue {
        let ctx = context.ref
        switch type {
        case kJSTypedArrayTypeArrayBuffer:
            let length = JSObjectGetArrayBufferByteLength(ctx, object, nil)
            try charge(length)
            guard length > 0, let pointer = JSObjectGetArrayBufferBytesPtr(ctx, object, nil) else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: length)))
        case kJSTypedArrayTypeUint8Array, kJSTypedArrayTypeUint8ClampedArray, kJSTypedArrayTypeInt8Array:
            let length = JSObjectGetTypedArrayByteLength(ctx, object, nil)
            try charge(length)
            // JSObjectGetTypedArrayBytesPtr points at the start of the whole buffer, not at the
            // view (a `subarray`): start from the buffer and add the view's offset explicitly.
            guard length > 0, let buffer = JSObjectGetTypedArrayBuffer(ctx, object, nil),
                  let base = JSObjectGetArrayBufferBytesPtr(ctx, buffer, nil) else { return .bytes([]) }
            let offset = JSObjectGetTypedArrayByteOffset(ctx, object, nil)
            return .bytes(Array(UnsafeRawBufferPointer(start: base + offset, count: length)))
        default:
            throw failure(.unsupported("a typed array other than Uint8Array"))
        }
    }
}
