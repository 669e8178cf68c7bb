/// Finds `url:line:column` in stack text and rewrites the ones whose URL is known: JavaScriptCore
/// frames (`fn@url:3:14`, `global code@url:1:2`), node's (`    at fn (url:3:14)`, `    at url:3:14`)
/// and plain mentions in messages (`... at url:3:14`). Everything else is left as it is.
///
/// A URL may hold `@`, `:`, `(` or spaces (`/app/node_modules/@scope/x.ts`, `hybrid:bridge.js`), so
/// the scanner does not split on them: before each `:line:column` it tries the text back to each
/// `@`, `(`, space or tab, and to the line's start, nearest first, and takes the first that `knows`
/// accepts.
public enum StackLocations {
    public static func rewrite(_ text: String, knows: (String) -> Bool, _ rewrite: (StackLocation) -> StackLocation?) -> String {
        var bytes = Array(text.utf8)
        var output: [UInt8] = []
        var changed = false
        var copied = 0
        var lineStart = 0
        var index = 0
        bytes.append(0)  // a sentinel: lookahead never runs off the end
        let count = bytes.count - 1
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                lineStart = index + 1
                index += 1
                continue
            }
            // `:digits:digits` not followed by another digit or `:digit`.
            guard byte == UInt8(ascii: ":"), let (line, column, end) = numbers(bytes, after: index) else {
                index += 1
                continue
            }
            if let (urlStart, url) = knownURL(bytes, lineStart: lineStart, colon: index, knows: knows),
               let mapped = rewrite(StackLocation(url: url, line: line, column: column)) {
                output.append(contentsOf: bytes[copied..<urlStart])
                output.append(contentsOf: mapped.description.utf8)
                copied = end
                changed = true
            }
            index = end
        }
        guard changed else { return text }
        output.append(contentsOf: bytes[copied..<count])
        return String(decoding: output, as: UTF8.self)
    }

    /// The line and column of `:L:C` at `colon`, and the index just past it.
    private static func numbers(_ bytes: [UInt8], after colon: Int) -> (Int, Int, Int)? {
        var index = colon + 1
        guard let line = digits(bytes, &index), bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let column = digits(bytes, &index) else { return nil }
        // `url:1:2:3` is no location we know how to read.
        if bytes[index] == UInt8(ascii: ":"), isDigit(bytes[index + 1]) { return nil }
        return (line, column, index)
    }

    private static func digits(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        var value = 0
        let start = index
        while isDigit(bytes[index]) {
            guard index - start < 9 else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func knownURL(_ bytes: [UInt8], lineStart: Int, colon: Int, knows: (String) -> Bool) -> (Int, String)? {
        var start = colon
        while start > lineStart {
            let before = bytes[start - 1]
            if before == UInt8(ascii: "@") || before == UInt8(ascii: "(") || before == UInt8(ascii: " ") || before == UInt8(ascii: "\t") {
                if start < colon, let url = known(bytes, start, colon, knows) { return (start, url) }
            }
            start -= 1
        }
        if start < colon, let url = known(bytes, start, colon, knows) { return (start, url) }
        return nil
    }

    private static func known(_ bytes: [UInt8], _ start: Int, _ end: Int, _ knows: (String) -> Bool) -> String? {
        let url = String(decoding: bytes[start..<end], as: UTF8.self)
        return knows(url) ? url : nil
    }
}
