/// The step that lets a module await at top level although esbuild refuses top-level `await` when
/// it writes CommonJS. Its input is esbuild's ES module output for one file with every import
/// external (`--bundle --external:*`), which has a fixed shape: a comment naming the file, the
/// `import` and `export ... from` statements, the body, one `export { local as name, ... };` list,
/// the inline source map. The body moves into an async function that the loader calls after the
/// module's imports are loaded:
///
/// ```js
/// import { a } from "./a";                    // stays: esbuild turns it into require
/// module.evaluate = async function (__hybrid_define) { __hybrid_define({ "b": () => b }); if (...) await ...; var b = await a();
/// __hybrid_define.done(); };                  // the export list, blanked
/// ```
///
/// Exports are getters over the function's variables, defined before anything awaits, so they are
/// live and a module in a cycle sees them. The body waits only for imported modules still
/// evaluating, so a module whose imports are done runs at once, as in Node; `done()` marks it
/// evaluated as soon as its body ends without having awaited. Lines are kept where they were (the export list becomes
/// blank lines), so the inline source map stays true and esbuild's second pass chains it.
///
/// Before that, ``marking(_:diagnostics:)`` hands each top-level `await`'s operand through
/// `__hybrid_define.at(line, column, operand)`, the author's line and column of that `await`, so
/// that the loader knows where a module that never settles is waiting (node's "Detected
/// unsettled top-level await at file:///app/main.mjs:3").
enum TopLevelAwaitRewrite {
    struct ShapeError: Error, CustomStringConvertible {
        let description: String
    }

    static func rewrite(_ module: String) throws(ShapeError) -> String {
        var lines = module.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var end = lines.count
        while end > 0, lines[end - 1].isEmpty || lines[end - 1].hasPrefix("//# sourceMappingURL=") { end -= 1 }
        let (exports, listStart) = try exportList(lines, end: end)
        var bodyStart = 0
        var inStatement = false
        while bodyStart < listStart {
            let line = lines[bodyStart]
            if inStatement {
                inStatement = !line.hasSuffix(";")
            } else if line.hasPrefix("//") || line.isEmpty {
                // the file name comment
            } else if line.hasPrefix("import ") || line.hasPrefix("export * ") {
                inStatement = !line.hasSuffix(";")
            } else {
                break
            }
            bodyStart += 1
        }
        let getters = exports.map { "\(quoted($0.name)): () => \($0.local)" }.joined(separator: ", ")
        let opening = "module.evaluate = async function (__hybrid_define) { __hybrid_define({ \(getters) }); "
            + "if (__hybrid_define.dependencies.length) await Promise.all(__hybrid_define.dependencies); "
        let closing = "__hybrid_define.done(); };"
        if bodyStart < listStart {
            lines[bodyStart] = opening + lines[bodyStart]
            lines[listStart - 1] += "\n" + closing
        } else {
            lines.insert(opening + closing, at: listStart)
        }
        for index in listStart..<end where index < lines.count { lines[index] = "" }
        return lines.joined(separator: "\n")
    }

    /// The closing `export { ... };` list: its (local, exported name) pairs and its first line.
    /// A module without exports has none; the list then "starts" at `end`.
    static func exportList(_ lines: [String], end: Int) throws(ShapeError) -> ([(local: String, name: String)], Int) {
        guard end > 0 else { return ([], end) }
        let last = lines[end - 1]
        var start = end - 1
        var text: String
        if last.hasPrefix("export {") && last.hasSuffix("};") {
            text = String(last.dropFirst("export {".count).dropLast(2))
        } else if last == "};" {
            while start > 0, lines[start] != "export {" { start -= 1 }
            guard lines[start] == "export {" else { throw ShapeError(description: "unexpected esbuild output: an export list's end without its start") }
            text = lines[(start + 1)..<(end - 1)].joined(separator: " ")
        } else {
            return ([], end)
        }
        text = text.replacingOccurrences(",", with: " , ")
        var pairs: [(local: String, name: String)] = []
        for item in text.split(separator: ",") {
            let words = item.split(separator: " ").map(String.init)
            switch words.count {
            case 1: pairs.append((words[0], words[0]))
            case 3 where words[1] == "as": pairs.append((words[0], unquoted(words[2])))
            case 0: continue
            default: throw ShapeError(description: "unexpected esbuild output: export item \(item)")
            }
        }
        return (pairs, start)
    }

    /// What esbuild runs with to list the top-level `await`s of the module scope it printed: it
    /// refuses each one, at its line and byte column (``marking(_:diagnostics:)`` reads them).
    static let siteOptions = ["--loader=js", "--format=esm", "--supported:top-level-await=false", "--log-limit=0",
                              "--log-level=error", "--color=false", "--charset=utf8"]

    /// `module` (esbuild's one-scope print, inline map and all) with the operand of each top-level
    /// `await` that `diagnostics` (esbuild's refusals, ``siteOptions``) names passed through
    /// `__hybrid_define.at(line, column, operand)`: the same value, the position recorded as the
    /// operand is handed to `await`. `for await (x of list)` passes `list` so. The operand is read
    /// on tokens as a unary expression (prefix operators, one primary, then `.x`, `?.x`, `[...]`,
    /// `(...)`, tagged templates and a postfix `++`/`--`); an `await` whose operand is not of that
    /// shape, or whose place the map does not know, is left unmarked. Only the lines that hold a
    /// marked `await` change, and only in their columns.
    static func marking(_ module: String, diagnostics: String) -> String {
        var sites: [(line: Int, column: Int)] = []
        for line in diagnostics.split(separator: "\n") {
            let text = line.drop { $0 == " " }
            guard text.hasPrefix("<stdin>:"), text.hasSuffix(":") else { continue }
            let parts = text.dropLast().split(separator: ":")
            guard parts.count == 3, let number = Int(parts[1]), let column = Int(parts[2]) else { continue }
            sites.append((number, column))
        }
        guard !sites.isEmpty, case let (_, mapText?) = ModuleTransformer.splitInlineMap(module),
              let map = try? SourceMap(json: mapText) else { return module }
        let scanner = SourceScanner(module)
        guard !scanner.isOpen, !scanner.isMismatched else { return module }
        let tokens = scanner.tokens
        let bytes = Array(module.utf8)
        var lineStarts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        var tokenAt: [Int: Int] = [:]
        for (index, token) in tokens.enumerated() where token.kind == .word && token.text == "await" { tokenAt[token.start] = index }
        var insertions: [(offset: Int, text: String)] = []
        for site in sites where site.line >= 1 && site.line <= lineStarts.count {
            let lineStart = lineStarts[site.line - 1]
            guard let index = tokenAt[lineStart + site.column] else { continue }
            let column = String(decoding: bytes[lineStart..<(lineStart + site.column)], as: UTF8.self).utf16.count
            guard let original = map.original(line: site.line - 1, column: column) else { continue }
            let label = "__hybrid_define.at(\(original.line + 1), \(original.column + 1), "
            let operand: (first: Int, last: Int)?
            if index > 0, tokens[index - 1].text == "for", index + 1 < tokens.count, tokens[index + 1].text == "(" {
                operand = iterable(tokens, head: index + 1)
            } else {
                operand = unaryOperand(tokens, after: index)
            }
            guard let operand else { continue }
            insertions.append((tokens[operand.first].start, label))
            insertions.append((tokens[operand.last].end, ")"))
        }
        guard !insertions.isEmpty else { return module }
        var result = bytes
        for insertion in insertions.sorted(by: { $0.offset > $1.offset }) {
            result.insert(contentsOf: Array(insertion.text.utf8), at: insertion.offset)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The tokens of the unary expression after `tokens[index]` (an `await`): first and last.
    static func unaryOperand(_ tokens: [SourceScanner.Token], after index: Int) -> (first: Int, last: Int)? {
        let depth = tokens[index].depth
        var position = index + 1
        func at(_ i: Int) -> SourceScanner.Token? { i < tokens.count && tokens[i].depth == depth ? tokens[i] : nil }
        while let token = at(position), (token.kind == .word && prefixWords.contains(token.text))
                || (token.kind == .punctuator && prefixOperators.contains(token.text)) {
            position += 1
        }
        guard let primary = at(position) else { return nil }
        var last: Int
        switch primary.kind {
        case .word:
            guard !refusedPrimaries.contains(primary.text) else { return nil }
            if primary.text == "import" && at(position + 1)?.text != "(" { return nil }
            last = position
        case .number, .string, .regex:
            last = position
        case .template:
            guard let end = templateEnd(tokens, from: position) else { return nil }
            last = end
        case .punctuator:
            guard primary.text == "(" || primary.text == "[" || primary.text == "{", let close = closing(tokens, of: position) else { return nil }
            last = close
        }
        var next = last + 1
        while let token = at(next) {
            if token.kind == .punctuator && (token.text == "." || token.text == "?.") {
                var name = next + 1
                if at(name)?.text == "#" { name += 1 }
                if let word = at(name), word.kind == .word {
                    last = name
                } else if token.text == "?.", let open = at(name), open.text == "(" || open.text == "[", let close = closing(tokens, of: name) {
                    last = close
                } else {
                    return nil
                }
            } else if token.kind == .punctuator && (token.text == "(" || token.text == "[") {
                guard let close = closing(tokens, of: next) else { return nil }
                last = close
            } else if token.kind == .template {
                guard let end = templateEnd(tokens, from: next) else { return nil }
                last = end
            } else if token.kind == .punctuator && (token.text == "++" || token.text == "--") && !token.newlineBefore {
                last = next
                break
            } else {
                break
            }
            next = last + 1
        }
        return (index + 1, last)
    }

    /// `for await (const x of list)`: the tokens of `list`, from after `of` to before the `)`.
    private static func iterable(_ tokens: [SourceScanner.Token], head: Int) -> (first: Int, last: Int)? {
        guard let close = closing(tokens, of: head) else { return nil }
        let inside = tokens[head].depth + 1
        guard let of = (head + 1..<close).last(where: { tokens[$0].depth == inside && tokens[$0].kind == .word && tokens[$0].text == "of" }),
              of + 1 < close else { return nil }
        return (of + 1, close - 1)
    }

    /// The bracket closing the one at `index`: the next token at its depth.
    private static func closing(_ tokens: [SourceScanner.Token], of index: Int) -> Int? {
        let depth = tokens[index].depth
        var next = index + 1
        while next < tokens.count, tokens[next].depth != depth { next += 1 }
        guard next < tokens.count, tokens[next].kind == .punctuator, [")", "]", "}"].contains(tokens[next].text) else { return nil }
        return next
    }

    /// The last token of the template starting at `index` (one token, or `${`-separated parts).
    private static func templateEnd(_ tokens: [SourceScanner.Token], from index: Int) -> Int? {
        var part = index
        while !tokens[part].text.hasSuffix("`") {
            let depth = tokens[part].depth
            var next = part + 1
            while next < tokens.count, tokens[next].depth != depth { next += 1 }
            guard next < tokens.count, tokens[next].kind == .template else { return nil }
            part = next
        }
        return part
    }

    private static let prefixWords: Set<String> = ["await", "typeof", "void", "delete", "new"]
    private static let prefixOperators: Set<String> = ["!", "~", "+", "-", "++", "--"]
    /// Primaries not followed: functions and classes (an odd thing to await), and words that
    /// cannot start one here.
    private static let refusedPrimaries: Set<String> = ["function", "class", "async", "yield", "super", "let", "const", "var", "in", "of"]

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"") + "\""
    }

    private static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.first == "\"", name.last == "\"" else { return name }
        return String(name.dropFirst().dropLast())
    }
}

private extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
