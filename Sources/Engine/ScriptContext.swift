import CJavaScriptCore
import Glibc
import JSON
import ScriptSources

/// One JavaScriptCore global context. It belongs to the engine's JS thread: every method must be
/// called there (it is asserted in debug builds), and no `JSValueRef` may leave that thread.
public final class ScriptContext {
    public let group: JSContextGroupRef
    public let ref: JSGlobalContextRef
    public let global: JSObjectRef
    let owner: pthread_t
    /// The engine whose thread this context lives on.
    public internal(set) weak var engine: JSEngine?
    /// The module system's entry points, set when the runtime is installed.
    var modules: JSObjectRef?
    /// Files compiled as CommonJS modules: their first line starts after the wrapper's prefix,
    /// which error reports subtract from line-1 columns.
    var moduleURLs: Set<String> = []
    /// What the loader puts before a module's first line, on that line: JavaScriptCore's columns
    /// on line 1 count it (a source map's `firstLineColumnOffset` is its length in UTF-16 units).
    public static let moduleWrapperPrefix = "(function (exports, require, module, __filename, __dirname) {"
    /// The source maps of modules compiled from another language (TypeScript, ES modules made
    /// CommonJS), by the URL they were compiled under: every stack and location this context
    /// reports goes through them (``mapStack(_:)``). The engine's ``JSEngine/sourceMaps``.
    public let sourceMaps: SourceMapRegistry

    /// The runtime's native object (`print`, `now`, ...), for further runtime scripts.
    public internal(set) var runtimeNative: JSObjectRef?

    /// Non-zero while ``jsonTextValue(of:maximumBytes:maximumDepth:)`` writes JSON text: then the
    /// `toJSON` guard the runtime puts on typed arrays and `ArrayBuffer` throws, so that bytes,
    /// which JSON text cannot hold, send the conversion down the walk instead.
    let bytesGuard = SharedCounter()

    private var stringCache: [String: JSStringRef] = [:]
    private var objectDefineProperty: JSObjectRef?

    init(group: JSContextGroupRef, sourceMaps: SourceMapRegistry = SourceMapRegistry()) {
        self.group = group
        self.sourceMaps = sourceMaps
        ref = JSGlobalContextCreateInGroup(group, nil)
        global = JSContextGetGlobalObject(ref)
        owner = pthread_self()
    }

    deinit {
        for string in stringCache.values { JSStringRelease(string) }
        JSGlobalContextRelease(ref)
    }

    /// Stops a debug build when the context is used off the thread that made it (the JS thread);
    /// compiled out of release builds.
    @inline(__always) public func assertOnThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_equal(owner, pthread_self()) != 0, "ScriptContext used off its JS thread", file: file, line: line)
    }

    // MARK: - Values

    public var undefined: JSValueRef { JSValueMakeUndefined(ref) }
    public var null: JSValueRef { JSValueMakeNull(ref) }

    public func number(_ value: Double) -> JSValueRef { JSValueMakeNumber(ref, value) }
    public func boolean(_ value: Bool) -> JSValueRef { JSValueMakeBoolean(ref, value) }

    public func string(_ value: String) -> JSValueRef {
        let string = Self.makeJSString(value)
        defer { JSStringRelease(string) }
        return JSValueMakeString(ref, string)
    }

    /// A JSString for a property name, cached: names repeat (keys of records, envelope fields).
    /// Past the cache's bound, names are released between tasks (``releaseTransientNames()``).
    func propertyName(_ name: String) -> JSStringRef {
        if let cached = stringCache[name] { return cached }
        let string = Self.makeJSString(name)
        if stringCache.count < 4096 { stringCache[name] = string } else { transientNames.append(string) }
        return string
    }

    private var transientNames: [JSStringRef] = []

    func releaseTransientNames() {
        guard !transientNames.isEmpty else { return }
        for string in transientNames { JSStringRelease(string) }
        transientNames.removeAll(keepingCapacity: true)
    }

    static func makeJSString(_ value: String) -> JSStringRef {
        UTF16Transcoder.withUnits(of: value) { units in JSStringCreateWithCharacters(units.baseAddress, units.count) }
    }

    /// A Swift string from a JSString; lone surrogates become U+FFFD (use ``jsonValue(from:)`` to
    /// refuse them instead).
    static func swiftString(_ string: JSStringRef) -> String {
        let length = JSStringGetLength(string)
        guard length > 0, let characters = JSStringGetCharactersPtr(string) else { return "" }
        return UTF16Transcoder.string(UnsafeBufferPointer(start: characters, count: length), repair: true) ?? ""
    }

    /// `String(value)` as JS would print it, never throwing.
    public func stringify(_ value: JSValueRef) -> String {
        guard let string = JSValueToStringCopy(ref, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        return Self.swiftString(string)
    }

    /// `body` with the UTF-16 code units of `String(value)` (lone surrogates and all), for a native
    /// function that works on UTF-16 and need not make a Swift string of it.
    public func withUTF16<T>(of value: JSValueRef, _ body: (UnsafeBufferPointer<UInt16>) -> T) -> T {
        guard let string = JSValueToStringCopy(ref, value, nil) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        defer { JSStringRelease(string) }
        let length = JSStringGetLength(string)
        return body(UnsafeBufferPointer(start: length > 0 ? JSStringGetCharactersPtr(string) : nil, count: length))
    }

    /// A JS string of these UTF-16 code units.
    public func string(utf16 units: UnsafeBufferPointer<UInt16>) -> JSValueRef {
        let string = JSStringCreateWithCharacters(units.baseAddress, units.count)
        defer { JSStringRelease(string) }
        return JSValueMakeString(ref, string)
    }

    // MARK: - Objects

    public func makeObject() -> JSObjectRef { JSObjectMake(ref, nil, nil) }

    public func get(_ object: JSObjectRef, _ key: String) -> JSValueRef {
        assertOnThread()
        return JSObjectGetProperty(ref, object, propertyName(key), nil) ?? undefined
    }

    public func set(_ object: JSObjectRef, _ key: String, _ value: JSValueRef, attributes: JSPropertyAttributes = 0) {
        assertOnThread()
        JSObjectSetProperty(ref, object, propertyName(key), value, attributes, nil)
    }

    /// Defines an own data property, even for keys such as `__proto__` whose plain assignment would
    /// change the prototype instead.
    func defineOwn(_ object: JSObjectRef, _ key: String, _ value: JSValueRef) {
        if key != "__proto__" {
            JSObjectSetProperty(ref, object, propertyName(key), value, 0, nil)
            return
        }
        if objectDefineProperty == nil {
            let function = try? evaluate(
                "(function (o, k, v) { Object.defineProperty(o, k, {value: v, writable: true, enumerable: true, configurable: true}); })",
                url: "hybrid:define")
            if let function, let object = JSValueToObject(ref, function, nil) {
                JSValueProtect(ref, object)
                objectDefineProperty = object
            }
        }
        guard let define = objectDefineProperty else { return }
        var args: [JSValueRef?] = [object, string(key), value]
        _ = JSObjectCallAsFunction(ref, define, nil, 3, &args, nil)
    }

    public func object(_ value: JSValueRef) -> JSObjectRef? {
        guard JSValueIsObject(ref, value) else { return nil }
        return JSValueToObject(ref, value, nil)
    }

    public func isFunction(_ value: JSValueRef) -> Bool {
        guard let object = object(value) else { return false }
        return JSObjectIsFunction(ref, object)
    }

    /// Whether `value` is a `Proxy` (or the global object's own proxy), found without reading a
    /// property, so without running any of its traps.
    public func isProxy(_ value: JSValueRef) -> Bool {
        guard let object = object(value) else { return false }
        return JSObjectGetProxyTarget(object) != nil
    }

    /// A JS function that runs `body` on this thread.
    public func makeFunction(_ body: @escaping NativeFunctionBody) -> JSObjectRef {
        let box = NativeFunctionBox(body: body, context: self)
        return JSObjectMake(ref, NativeFunctionBox.jsClass, Unmanaged.passRetained(box).toOpaque())
    }

    public func makeError(name: String, message: String) -> JSObjectRef {
        var args: [JSValueRef?] = [string(message)]
        let error = JSObjectMakeError(ref, 1, &args, nil)!
        if name != "Error" { set(error, "name", string(name)) }
        return error
    }

    // MARK: - Running code

    /// Evaluates a script. `url` names it in stack traces; `line` is the line its first line has.
    @discardableResult
    public func evaluate(_ source: String, url: String, line: Int = 1) throws(ScriptError) -> JSValueRef {
        assertOnThread()
        var exception: JSValueRef?
        let result = rawEvaluate(source, url: url, line: line, exception: &exception)
        if let exception { throw scriptError(from: exception) }
        return result ?? undefined
    }

    /// Evaluates a script and hands back what it threw as the JS value itself, for a caller that
    /// shows it as JS would (the REPL prints it with `inspect`). Scripts evaluated one after
    /// another share the global scope, `let` and `const` included.
    public func evaluateCatching(_ source: String, url: String) -> (value: JSValueRef?, exception: JSValueRef?) {
        assertOnThread()
        var exception: JSValueRef?
        let result = rawEvaluate(source, url: url, line: 1, exception: &exception)
        return (exception == nil ? result ?? undefined : nil, exception)
    }

    /// Checks syntax without running.
    public func checkSyntax(_ source: String, url: String) throws(ScriptError) {
        var exception: JSValueRef?
        let valid = withJSStrings(source, url) { sourceString, urlString in
            JSCheckScriptSyntax(ref, sourceString, urlString, 1, &exception)
        }
        if !valid, let exception { throw scriptError(from: exception) }
    }

    /// JSEvaluateScript with Swift strings; the exception is left for the caller.
    func rawEvaluate(_ source: String, url: String, line: Int, exception: inout JSValueRef?) -> JSValueRef? {
        withJSStrings(source, url) { sourceString, urlString in
            JSEvaluateScript(ref, sourceString, nil, urlString, Int32(line), &exception)
        }
    }

    private func withJSStrings<T>(_ first: String, _ second: String, _ body: (JSStringRef, JSStringRef) -> T) -> T {
        let a = Self.makeJSString(first)
        let b = Self.makeJSString(second)
        defer {
            JSStringRelease(a)
            JSStringRelease(b)
        }
        return body(a, b)
    }

    @discardableResult
    public func call(_ function: JSObjectRef, this: JSObjectRef? = nil, _ arguments: [JSValueRef]) throws(ScriptError) -> JSValueRef {
        assertOnThread()
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: JSValueRef?.self) { args in
                JSObjectCallAsFunction(ref, function, this, arguments.count, args.baseAddress, &exception)
            }
        }
        if let exception { throw scriptError(from: exception) }
        return result ?? undefined
    }

    /// Reads an exception value into a ``ScriptError``.
    public func scriptError(from exception: JSValueRef) -> ScriptError {
        guard let object = object(exception) else {
            var error = ScriptError(name: "Error", message: stringify(exception))
            error.isTimeLimit = error.message == "JavaScript execution terminated."
            error.thrownNonError = true
            if JSValueIsSymbol(ref, exception), let shown = describeThrown(exception)?.value { error.message = shown }
            return error
        }
        let name = stringify(get(object, "name"))
        let message = stringify(get(object, "message"))
        // The time limit's exception is left alone: no more JS runs for it.
        let described = message == "JavaScript execution terminated." ? nil : describeThrown(exception)
        if let shown = described?.value {
            var error = ScriptError(name: "Error", message: shown)
            error.thrownNonError = true
            return error
        }
        let stackValue = get(object, "stack")
        let stack = JSValueIsString(ref, stackValue) ? ScriptError.nodeStyleStack(mapStack(stringify(stackValue))) : ""
        let urlValue = get(object, "sourceURL")
        let lineValue = get(object, "line")
        let columnValue = get(object, "column")
        var url = JSValueIsString(ref, urlValue) ? stringify(urlValue) : nil
        var line = JSValueIsNumber(ref, lineValue) ? Int(JSValueToNumber(ref, lineValue, nil)) : nil
        var column = JSValueIsNumber(ref, columnValue) ? Int(JSValueToNumber(ref, columnValue, nil)) : nil
        // A syntax error's column was estimated in the module's own text (``locateSyntaxError``).
        if name != "SyntaxError", let thrownURL = url, let thrownLine = line, let thrownColumn = column {
            let mapped = mapLocation(StackLocation(url: thrownURL, line: thrownLine, column: thrownColumn))
            (url, line, column) = (mapped.url, mapped.line, mapped.column)
        }
        var error = ScriptError(
            name: name.isEmpty || name == "undefined" ? "Error" : name,
            message: message == "undefined" ? stringify(exception) : message,
            stack: stack, sourceURL: url, line: line, column: column)
        if error.message == "JavaScript execution terminated." { error.isTimeLimit = true }
        error.properties = described?.properties ?? ""
        return error
    }

    /// How node prints what was thrown, from the runtime's `describeThrown` (console.js): a value
    /// that is not an Error as console.log shows it (`value`), or an error's own properties as
    /// util.inspect writes them after its stack (`properties`). Nil before the runtime is
    /// installed, or when inspecting threw.
    private func describeThrown(_ thrown: JSValueRef) -> (value: String?, properties: String)? {
        guard let native = runtimeNative, let describe = object(get(native, "describeThrown")) else { return nil }
        var exception: JSValueRef?
        var args: [JSValueRef?] = [thrown]
        guard let result = JSObjectCallAsFunction(ref, describe, nil, 1, &args, &exception), exception == nil,
              let answer = object(result) else { return nil }
        let value = get(answer, "value"), properties = get(answer, "properties")
        return (JSValueIsString(ref, value) ? stringify(value) : nil, JSValueIsString(ref, properties) ? stringify(properties) : "")
    }

    // MARK: - Stack locations

    /// `stack` (JavaScriptCore's `fn@url:line:column` frames, or any text naming such locations)
    /// with each location of a module put right: through its source map when it has one, else
    /// with line 1's column counted from the module's first character rather than the wrapper's.
    /// Other locations are left alone. The frames keep their format.
    public func mapStack(_ stack: String) -> String {
        let moduleURLs = self.moduleURLs
        let sourceMaps = self.sourceMaps
        return StackLocations.rewrite(stack, knows: { moduleURLs.contains($0) || sourceMaps.contains(url: $0) }) { location in
            let mapped = mapLocation(location)
            return mapped == location ? nil : mapped
        }
    }

    /// `location` as JavaScriptCore reports it, put right as ``mapStack(_:)`` does.
    public func mapLocation(_ location: StackLocation) -> StackLocation {
        if let original = sourceMaps.original(location) { return original }
        guard location.line == 1, moduleURLs.contains(location.url) else { return location }
        return StackLocation(url: location.url, line: 1, column: max(1, location.column - Self.moduleWrapperPrefix.utf16.count))
    }

    // MARK: - Protection

    /// Keeps `value` alive while native code holds it (timers, pending calls).
    public func protect(_ value: JSValueRef) { JSValueProtect(ref, value) }
    public func unprotect(_ value: JSValueRef) { JSValueUnprotect(ref, value) }
}

extension ScriptContext {
    /// Defines `object[name]` as a native function, not enumerable.
    public func setFunction(_ object: JSObjectRef, _ name: String, _ body: @escaping NativeFunctionBody) {
        set(object, name, makeFunction(body), attributes: JSPropertyAttributes(kJSPropertyAttributeDontEnum))
    }

    /// Runs a runtime script: its text is a function body taking `native`.
    public func runPrelude(_ body: String, url: String, native: JSObjectRef) throws(ScriptError) {
        let function = try evaluate("(function (native) {" + body + "\n})", url: url)
        guard let object = object(function) else { return }
        try call(object, [native])
    }

    /// Evaluates `source`; an exception is rethrown to JS as the very same value, so a syntax
    /// error keeps its file, line and column.
    func evaluateKeepingException(_ source: String, url: String) throws -> JSValueRef {
        var exception: JSValueRef?
        let result = rawEvaluate(source, url: url, line: 1, exception: &exception)
        if let exception { throw ThrownJSValue(value: exception) }
        return result ?? undefined
    }

    /// Loads the app's main module by absolute path (see `js/runtime/modules.js`); returns its
    /// exports, or a promise of them when it awaits at top level.
    @discardableResult
    public func runMain(_ filename: String) throws(ScriptError) -> JSValueRef {
        guard let modules, let runMain = object(get(modules, "runMain")) else {
            throw ScriptError(name: "Error", message: "the module system is not installed")
        }
        return try call(runMain, [string(filename)])
    }

    /// Whether `promise` is the main module's evaluation (a module that awaits at top level): its
    /// rejection is what the module threw, reported as a throw rather than a rejection.
    public func isMainEvaluation(_ promise: JSValueRef) -> Bool {
        guard let modules, let main = object(get(modules, "mainEvaluation")) else { return false }
        return JSValueIsStrictEqual(ref, promise, main)
    }
}

extension ScriptContext {
    /// JavaScriptCore's syntax errors carry a line but no column. Estimate the column from the
    /// token the message names ("Unexpected token ';'"), else point at the line's end, and record
    /// it with the file on the error object.
    func locateSyntaxError(_ exception: JSValueRef, source: String, url: String) {
        guard let error = object(exception), stringify(get(error, "name")) == "SyntaxError" else { return }
        let lineValue = get(error, "line")
        guard JSValueIsNumber(ref, lineValue) else { return }
        var line = Int(JSValueToNumber(ref, lineValue, nil))
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1 else { return }
        if line > lines.count {
            // "Unexpected end of script" points into the wrapper's closing line: use the source's last line.
            line = max(1, lines.lastIndex(where: { !$0.isEmpty }).map { $0 + 1 } ?? 1)
            set(error, "line", number(Double(line)))
        }
        let text = line <= lines.count ? lines[line - 1] : ""
        let message = stringify(get(error, "message"))
        var column = text.utf16.count + 1
        if let open = message.firstIndex(where: { $0 == "'" || $0 == "\"" }),
           let close = message[message.index(after: open)...].firstIndex(of: message[open]) {
            let token = message[message.index(after: open)..<close]
            let haystack = Array(text.utf16)
            let needle = Array(token.utf16)
            if !needle.isEmpty, needle.count <= haystack.count,
               let offset = (0...(haystack.count - needle.count)).first(where: { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }) {
                column = offset + 1
            }
        }
        set(error, "column", number(Double(column)))
        set(error, "sourceURL", string(url))
    }
}

/// A JS value thrown from a native function as it is.
// @unchecked: `value` belongs to the JS thread's context; the error is thrown and caught on the JS thread (native functions, module loading), never handed to another thread.
struct ThrownJSValue: Error, @unchecked Sendable {
    let value: JSValueRef
}
