import CJavaScriptCore
import Glibc

/// Strings and bytes between JS and native code without a Swift `String` in between: a JS
/// string's UTF-16 code units read in place, a typed array's bytes read in place, a JS string made
/// from code units and a `Uint8Array` made from bytes native code writes. For the web platform's
/// codecs (TextEncoder, TextDecoder, atob), whose cost is these crossings.
extension ScriptContext {
    /// The UTF-16 code units of `value`, converted to a string first as `String(value)` would
    /// (never throwing: a symbol, or a `toString` that throws, gives ""). Valid only inside `body`.
    public func withUTF16<T>(of value: ScriptValue, _ body: (UnsafeBufferPointer<UInt16>) throws -> T) rethrows -> T {
        assertOnThread()
        guard let string = JSValueToStringCopy(ref, value, nil) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        defer { JSStringRelease(string) }
        let length = JSStringGetLength(string)
        guard length > 0, let characters = JSStringGetCharactersPtr(string) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: characters, count: length))
    }

    /// A JS string of the code units `fill` writes into room for `capacity` of them; `fill` returns
    /// how many it wrote (at most `capacity`).
    public func makeString(utf16Capacity capacity: Int, _ fill: (UnsafeMutablePointer<UInt16>) throws -> Int) rethrows -> ScriptValue {
        assertOnThread()
        // Small strings are written on the stack; JavaScriptCore copies them either way.
        if capacity <= 2048 {
            return try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(capacity, 1)) { buffer in
                let count = try fill(buffer.baseAddress!)
                return makeString(buffer.baseAddress!, count: count)
            }
        }
        let buffer = UnsafeMutablePointer<UInt16>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let count = try fill(buffer)
        return makeString(buffer, count: count)
    }

    private func makeString(_ units: UnsafePointer<UInt16>, count: Int) -> ScriptValue {
        // The JSString must own its characters: `units` is freed (or, on the stack, reused) as soon
        // as this returns. (A no-copy string here once made an earlier TextDecoder result change
        // under a later decode: FileAPI/blob/Blob-text.any.js, "concurrent reads".)
        let string = JSStringCreateWithCharacters(units, count)
        defer { JSStringRelease(string) }
        return JSValueMakeString(ref, string)
    }

    /// A new `Uint8Array` of the bytes `fill` writes into room for `capacity` of them; `fill`
    /// returns how many it wrote (at most `capacity`), the array's length. The array owns the
    /// memory it was written in: no copy.
    public func makeUint8Array(capacity: Int, _ fill: (UnsafeMutablePointer<UInt8>) throws -> Int) rethrows -> ScriptValue {
        assertOnThread()
        guard capacity > 0, let memory = malloc(capacity) else {
            return JSObjectMakeTypedArray(ref, kJSTypedArrayTypeUint8Array, 0, nil) ?? undefined
        }
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        let count: Int
        do {
            count = try fill(bytes)
        } catch {
            free(memory)
            throw error
        }
        guard count > 0 else {
            free(memory)
            return JSObjectMakeTypedArray(ref, kJSTypedArrayTypeUint8Array, 0, nil) ?? undefined
        }
        // Give back what was not written (a UTF-8 guess of three bytes per unit, say).
        let kept = count < capacity ? realloc(memory, count) ?? memory : memory
        let array = JSObjectMakeTypedArrayWithBytesNoCopy(ref, kJSTypedArrayTypeUint8Array, kept, count, { bytes, _ in free(bytes) }, nil, nil)
        guard let array else {
            free(kept)
            return undefined
        }
        return array
    }

    /// A new `Uint8Array` holding a copy of `bytes`: a bridge answer's bytes, a body's chunk.
    ///
    /// The copy is in memory of malloc's that the array owns (freed when the collector frees the
    /// array). Made with `JSObjectMakeTypedArray` and written through `JSObjectGetTypedArrayBytesPtr`,
    /// the array's buffer was pinned: `transfer()` (a byte stream's enqueue) then copied it instead
    /// of moving it, and left the original attached. And malloc hands a freed block to the next
    /// chunk of a body read in a loop. 100 MB through fetch's `response.body` in 256 KiB chunks grew
    /// peak RSS by 14.7-15.1 MiB instead of 22.3-22.8 (release; BENCHMARKS.md, "response.body's
    /// chunks over malloc").
    public func makeUint8Array(copying bytes: [UInt8]) -> ScriptValue {
        makeUint8Array(capacity: bytes.count) { memory in
            bytes.withUnsafeBufferPointer { memory.update(from: $0.baseAddress!, count: $0.count) }
            return bytes.count
        }
    }

    /// A new `Uint8Array` over `count` bytes of `memory`, which came from `malloc` and which the
    /// array now owns (freed when the collector frees it): for native code whose output grows as it
    /// is written (zlib's), so that it cannot say its capacity up front.
    public func makeUint8Array(adopting memory: UnsafeMutableRawPointer, count: Int) -> ScriptValue {
        assertOnThread()
        guard count > 0 else {
            free(memory)
            return JSObjectMakeTypedArray(ref, kJSTypedArrayTypeUint8Array, 0, nil) ?? undefined
        }
        guard let array = JSObjectMakeTypedArrayWithBytesNoCopy(ref, kJSTypedArrayTypeUint8Array, memory, count, { bytes, _ in free(bytes) }, nil, nil) else {
            free(memory)
            return undefined
        }
        return array
    }

    /// A new `Uint8Array` over `bytes`, memory that `owner` keeps alive and unchanged (a Swift
    /// `Data`'s heap storage, boxed): the array holds `owner` until the collector frees it. No copy,
    /// for a large result a library already wrote where it chose (swift-crypto's ciphertext).
    public func makeUint8Array(over bytes: UnsafeRawBufferPointer, keeping owner: AnyObject) -> ScriptValue {
        assertOnThread()
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return JSObjectMakeTypedArray(ref, kJSTypedArrayTypeUint8Array, 0, nil) ?? undefined
        }
        let retained = Unmanaged.passRetained(owner).toOpaque()
        let array = JSObjectMakeTypedArrayWithBytesNoCopy(ref, kJSTypedArrayTypeUint8Array, UnsafeMutableRawPointer(mutating: base), bytes.count,
                                                          { _, owner in owner.map { Unmanaged<AnyObject>.fromOpaque($0).release() } }, retained, nil)
        guard let array else {
            Unmanaged<AnyObject>.fromOpaque(retained).release()
            return undefined
        }
        return array
    }

    /// A new JS array of `count` elements, `element(index)` each, made in order and put in the
    /// array as each is made. (Not made first into a Swift array: the collector finds values on
    /// the stack, not in Swift's heap, so the first of them could be collected while the next is
    /// made. That crashed a 100 MB gzip round trip in the collector's marking.)
    public func makeArray(count: Int, _ element: (Int) -> ScriptValue) -> ScriptValue {
        assertOnThread()
        guard let array = JSObjectMakeArray(ref, 0, nil, nil) else { return undefined }
        for index in 0..<count {
            JSObjectSetPropertyAtIndex(ref, array, UInt32(index), element(index), nil)
        }
        return array
    }

    /// The bytes `value` holds when it is an `ArrayBuffer` (shared or not) or a typed array of any
    /// element type (its view of its buffer), handed to `body`; nil for anything else, a `DataView`
    /// included (JavaScriptCore's C API does not see one). A detached buffer has no bytes.
    ///
    /// Reading a buffer's memory through the C API pins it: it can no longer be transferred or
    /// detached.
    public func withBytes<T>(of value: ScriptValue, _ body: (UnsafeMutableRawBufferPointer) throws -> T) rethrows -> T? {
        assertOnThread()
        let type = JSValueGetTypedArrayType(ref, value, nil)
        guard type != kJSTypedArrayTypeNone else { return nil }
        // An object's JSValueRef is its JSObjectRef: no JSValueToObject (each call takes the VM's lock).
        let object: JSObjectRef = value
        if type == kJSTypedArrayTypeArrayBuffer {
            let length = JSObjectGetArrayBufferByteLength(ref, object, nil)
            guard length > 0, let base = JSObjectGetArrayBufferBytesPtr(ref, object, nil) else {
                return try body(UnsafeMutableRawBufferPointer(start: nil, count: 0))
            }
            return try body(UnsafeMutableRawBufferPointer(start: base, count: length))
        }
        let length = JSObjectGetTypedArrayByteLength(ref, object, nil)
        // The pointer is the start of the whole buffer, not of the view (a `subarray`): the view's
        // offset is added here.
        guard length > 0, let base = JSObjectGetTypedArrayBytesPtr(ref, object, nil) else {
            return try body(UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        let offset = JSObjectGetTypedArrayByteOffset(ref, object, nil)
        return try body(UnsafeMutableRawBufferPointer(start: base + offset, count: length))
    }

    /// Runs `body` holding the VM's lock, so that the C API calls it makes (through the methods
    /// here) take it recursively instead of afresh: a native function doing several pays for one
    /// lock instead of each. Not for a body that waits on another thread.
    public func withAPILock<T>(_ body: () throws -> T) rethrows -> T {
        // JSC::JSLockHolder is one pointer; two give it room to spare.
        var holder: (UInt, UInt) = (0, 0)
        return try withUnsafeMutableBytes(of: &holder) { storage in
            hh_api_lock(storage.baseAddress, ref)
            defer { hh_api_unlock(storage.baseAddress) }
            return try body()
        }
    }

    /// Whether `value` is `undefined`.
    public func isUndefined(_ value: ScriptValue) -> Bool { JSValueIsUndefined(ref, value) }

    // MARK: - Host objects

    /// A JS object that holds `object` for native code (a decoder's state, say), releasing it when
    /// the collector frees the JS object. It has no properties; JS passes it back to native
    /// functions, which read it with ``hostObject(_:)``.
    public func makeHostObject(_ object: AnyObject) -> ScriptObject {
        assertOnThread()
        return JSObjectMake(ref, HostObjectClass.jsClass, Unmanaged.passRetained(object).toOpaque())
    }

    /// What ``makeHostObject(_:)`` put in `value`; nil for any other value.
    public func hostObject(_ value: ScriptValue) -> AnyObject? {
        guard JSValueIsObjectOfClass(ref, value, HostObjectClass.jsClass), let object = JSValueToObject(ref, value, nil),
              let raw = JSObjectGetPrivate(object) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// The JSClass of host objects: private data is a retained Swift object, released at finalization.
enum HostObjectClass {
    nonisolated(unsafe) static let jsClass: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = ("HostObject" as StaticString).utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) { $0 }
        definition.finalize = { object in
            guard let raw = JSObjectGetPrivate(object) else { return }
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        return JSClassCreate(&definition)
    }()
}
