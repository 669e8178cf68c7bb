import CJavaScriptCore
import Synchronization

/// Compiles module sources in a JavaScriptCore context of its own (its own VM, not the app's), on
/// the calling thread, so that a syntax error (in a patch, say) is found before the app's JS thread
/// is touched. Nothing is run. An instance checks one thing at a time: calls from several threads
/// take turns.
///
/// ```swift
/// try SyntaxChecker.check([(name: "cart", source: "exports.total = (a, b) => a + b;")])
/// ```
// @unchecked: the JavaScriptCore handles `group` and `context` are immutable and used only with `lock` held (check, scriptProblem), and released in deinit.
public final class SyntaxChecker: @unchecked Sendable {
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    private let lock = Mutex(())

    public init() {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Checks with a context made for the purpose.
    public static func check(_ sources: [(name: String, source: String)]) throws(SyntaxError) {
        try SyntaxChecker().check(sources)
    }

    /// Throws ``SyntaxError`` naming the module, line and message of the first error.
    public func check(_ sources: [(name: String, source: String)]) throws(SyntaxError) {
        try lock.withLock { _ throws(SyntaxError) in try checkLocked(sources) }
    }

    private func checkLocked(_ sources: [(name: String, source: String)]) throws(SyntaxError) {
        for (name, source) in sources {
            // The same wrapper the module loader uses, so `return` at the top level is as legal here.
            let wrapped = "(function (exports, require, module, __filename, __dirname) {" + source + "\n})"
            let script = JSStringCreateWithUTF8CString(wrapped)
            let url = JSStringCreateWithUTF8CString(name)
            defer {
                JSStringRelease(script)
                JSStringRelease(url)
            }
            var exception: JSValueRef?
            if !JSCheckScriptSyntax(context, script, url, 1, &exception) {
                throw SyntaxError(module: name, message: describe(exception, in: context))
            }
        }
    }

    /// JavaScriptCore's message when `source` does not compile as a script (the global scope,
    /// where `await` outside a function is an error); nil when it compiles.
    public func scriptProblem(_ source: String) -> String? {
        lock.withLock { _ in scriptProblemLocked(source) }
    }

    private func scriptProblemLocked(_ source: String) -> String? {
        let script = JSStringCreateWithUTF8CString(source)
        let url = JSStringCreateWithUTF8CString("REPL")
        defer {
            JSStringRelease(script)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        if JSCheckScriptSyntax(context, script, url, 1, &exception) { return nil }
        return describe(exception, in: context)
    }

    private func describe(_ exception: JSValueRef?, in context: JSGlobalContextRef?) -> String {
        guard let exception else { return "syntax error" }
        var text = string(exception, context)
        if let object = JSValueToObject(context, exception, nil) {
            let name = JSStringCreateWithUTF8CString("line")
            defer { JSStringRelease(name) }
            let line = JSObjectGetProperty(context, object, name, nil)
            if let line, JSValueIsNumber(context, line) { text += " (line \(Int(JSValueToNumber(context, line, nil))))" }
        }
        return text
    }

    private func string(_ value: JSValueRef, _ context: JSGlobalContextRef?) -> String {
        guard let string = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        let size = JSStringGetMaximumUTF8CStringSize(string)
        var buffer = [CChar](repeating: 0, count: size)
        let written = JSStringGetUTF8CString(string, &buffer, size)
        return String(decoding: buffer.prefix(max(0, written - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A module that does not compile: its name, and JavaScriptCore's message with the line.
public struct SyntaxError: Error, Sendable, CustomStringConvertible {
    public let module: String
    public let message: String

    public var description: String { "\(module): \(message)" }
}
