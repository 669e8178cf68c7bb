/// The JavaScript condition a DAP source breakpoint becomes: its `condition`, its `hitCondition`
/// (a count kept per breakpoint in the app) and its `logMessage` (a logpoint: the message
/// printed with `console.log`, which reaches the debug console with the app's output, and the
/// condition false so that it never stops).
///
/// ```swift
/// try BreakpointCondition.javaScript(condition: "n > 2", hitCondition: ">= 3", logMessage: nil, key: "b7")
/// ```
enum BreakpointCondition {
    /// The condition for the inspector, nil when the breakpoint always stops.
    static func javaScript(condition: String?, hitCondition: String?, logMessage: String?, key: String) throws(DebugAdapterError) -> String? {
        var parts: [String] = []
        if let condition = condition.flatMap(nonEmpty) { parts.append("(\(condition))") }
        if let hitCondition = hitCondition.flatMap(nonEmpty) {
            let (operation, count) = try parseHitCondition(hitCondition)
            let counter = "(globalThis[Symbol.for(\"hybrid.debugger.hits\")] ??= {})"
            let hits = "(\(counter)[\(quoted(key))] = (\(counter)[\(quoted(key))] || 0) + 1)"
            parts.append(operation == "%" ? "(\(hits) % \(count) === 0)" : "(\(hits) \(operation) \(count))")
        }
        if let logMessage {
            parts.append("(console.log(\(template(logMessage))), false)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " && ")
    }

    /// `N`, `>= N`, `> N`, `== N`, `=== N`, `< N`, `<= N` or `% N` (every Nth hit): the operator
    /// (a bare count means from the Nth hit on) and N.
    static func parseHitCondition(_ text: String) throws(DebugAdapterError) -> (operation: String, count: Int) {
        let trimmed = text.filter { $0 != " " }
        for operation in [">=", "<=", "===", "==", ">", "<", "%"] where trimmed.hasPrefix(operation) {
            if let count = Int(trimmed.dropFirst(operation.count)), count >= 0 {
                return (operation == "==" ? "===" : operation, count)
            }
        }
        if let count = Int(trimmed), count >= 0 { return (">=", count) }
        throw DebugAdapterError(.badArguments, "hitCondition: expected a count such as 3, >= 3, == 3 or % 3, got \"\(text)\"")
    }

    /// A logpoint's message as a template literal: `{expression}` parts are interpolated, as
    /// editors write them (`x is {x}`); `\{` is a brace.
    static func template(_ message: String) -> String {
        var out = "`"
        var depth = 0
        var escaped = false
        for character in message {
            if escaped {
                out += character == "`" || character == "\\" || character == "$" ? "\\\(character)" : String(character)
                escaped = false
                continue
            }
            switch character {
            case "\\" where depth == 0:
                escaped = true
            case "{":
                out += depth == 0 ? "${" : "{"
                depth += 1
            case "}" where depth > 0:
                depth -= 1
                out += "}"
            case "`" where depth == 0, "$" where depth == 0:
                out += "\\\(character)"
            default:
                out.append(character)
            }
        }
        if depth > 0 { out += String(repeating: "}", count: depth) }
        return out + "`"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\\" || character == "\"" { out += "\\" }
            out.append(character)
        }
        return out + "\""
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.allSatisfy(\.isWhitespace) ? nil : text
    }
}
