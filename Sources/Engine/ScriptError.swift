/// A JavaScript exception, carried into Swift: name, message and the JS stack.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var message: String
    /// The stack in node's shape, one `    at fn (file:line:column)` per frame; empty when the
    /// thrown value was not an Error.
    public var stack: String
    public var sourceURL: String?
    public var line: Int?
    public var column: Int?
    /// True when the engine's time limit stopped the script.
    public var isTimeLimit: Bool = false
    /// True when the run's memory passed `EngineOptions.memoryLimitBytes` and it was stopped.
    public var isMemoryLimit: Bool = false
    /// True when JS threw something other than an Error (`throw "x"`): there is no stack, and
    /// `message` is the value as node prints it (`x`, `{ code: 42 }`).
    public var thrownNonError: Bool = false
    /// The error's own properties as node prints them after the stack (` {\n  code: 'E_DENIED'\n}`),
    /// or "" when it has none.
    public var properties: String = ""

    public init(name: String, message: String, stack: String = "", sourceURL: String? = nil,
                line: Int? = nil, column: Int? = nil) {
        self.name = name
        self.message = message
        self.stack = stack
        self.sourceURL = sourceURL
        self.line = line
        self.column = column
    }

    /// `file:line:column` where the exception was raised, when known.
    public var location: String? {
        guard let sourceURL, let line else { return nil }
        return column.map { "\(sourceURL):\(line):\($0)" } ?? "\(sourceURL):\(line)"
    }

    /// `Name: message at file:line:column`: the error on one line, for reasons and logs (a patch
    /// rolled back). The location is where it was thrown, mapped as the stack is.
    public var summary: String {
        let text = thrownNonError ? message : (message.isEmpty ? name : "\(name): \(message)")
        return location.map { "\(text) at \($0)" } ?? text
    }

    /// `Name: message`, then the stack, led by the location when the stack lacks it (a syntax
    /// error has no frames of its own), then the error's own properties.
    public var description: String {
        var text = thrownNonError ? message : (message.isEmpty ? name : "\(name): \(message)")
        if let location, !stack.contains(location) { text += "\n    at \(location)" }
        if !stack.isEmpty { text += "\n" + stack }
        return text + properties
    }

    /// Rewrites JavaScriptCore's `fn@url:line:column` frames into node's `    at fn (url:line:column)`.
    /// Locations are taken as they are: ``ScriptContext/mapStack(_:)`` puts them right first.
    static func nodeStyleStack(_ jscStack: String) -> String {
        jscStack.split(separator: "\n", omittingEmptySubsequences: true).compactMap { frame -> String? in
            let text = String(frame)
            guard let at = text.firstIndex(of: "@") else {
                // Native frames carry no location ("forEach@[native code]" has one; bare names do not).
                return text == "global code" ? nil : "    at \(text)"
            }
            let function = text[..<at]
            let location = text[text.index(after: at)...]
            if location == "[native code]" { return function.isEmpty ? nil : "    at \(function) (native)" }
            if function.isEmpty || function == "global code" || function == "module code" { return "    at \(location)" }
            return "    at \(function) (\(location))"
        }.joined(separator: "\n")
    }
}
