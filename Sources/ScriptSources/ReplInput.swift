/// What a REPL makes of the text typed so far: more lines to wait for, or a script to evaluate in
/// the global scope, plain or, when it awaits at top level, rewritten to run in an async function.
///
/// The rewrite is node's REPL's (lib/internal/repl/await.js), done on tokens rather than a syntax
/// tree: top-level declarations become assignments to names declared before the async function,
/// so that they outlive it (`const` becomes `let`, as in node), and the last statement, when it is
/// an expression, becomes the function's return value, which the REPL prints once it settles:
///
/// ```js
/// const user = await load(1); user.name        // typed
/// let user; track((async () => {
/// void (user = await load(1)); return (user.name)
/// })())                                        // evaluated
/// ```
///
/// Each guess is checked by compiling it (`syntaxProblem`, JavaScriptCore's message or nil), so a
/// guess that goes wrong is never run: the input is then evaluated as typed and its SyntaxError
/// reported.
public enum ReplInput: Equatable, Sendable {
    /// The input stops inside a bracket, string, template or comment, or where a statement must
    /// go on (`1 +`): show the continuation prompt and read more.
    case incomplete
    /// Evaluate as a script; its completion value is the result.
    case script(String)
    /// Evaluate as a script; it returns a promise of the result.
    case asynchronous(String)

    /// Decides what `source` is. `syntaxProblem` compiles a script without running it. The async
    /// form hands its promise to the function named `tracker` (`tracker(promise)` must return it),
    /// within the same script, so that a rejection finds a handler before microtasks run.
    public static func read(_ source: String, tracker: String, syntaxProblem: (String) -> String?) -> ReplInput {
        let scanner = SourceScanner(source)
        if scanner.isOpen { return .incomplete }
        if scanner.isMismatched { return .script(source) }
        // `{ a: 1 }` is an object, not a block, as in node.
        if let first = scanner.tokens.first, first.text == "{", let last = scanner.tokens.last, last.text == "}", last.depth == 0 {
            let object = "(" + source + "\n)"
            if syntaxProblem(object) == nil { return .script(object) }
        }
        guard let problem = syntaxProblem(source) else { return .script(source) }
        if scanner.tokens.contains(where: { $0.kind == .word && $0.text == "await" }),
           let rewritten = asynchronous(source, tokens: scanner.tokens, tracker: tracker, syntaxProblem: syntaxProblem) {
            return .asynchronous(rewritten)
        }
        if endsEarly(problem) { return .incomplete }
        return .script(source)
    }

    /// Whether `source` stops inside a bracket, string, template or block comment (for input in
    /// another language than JavaScript, whose parser says the rest).
    public static func isOpen(_ source: String) -> Bool { SourceScanner(source).isOpen }

    /// `source` with each `import(...)` call made `require.import(...)`, as a CommonJS module's
    /// are (``CommonJSDynamicImport``): JavaScriptCore's own `import()` cannot load anything in a
    /// host without its module loader, so the REPL's inputs import through the app's loader, with
    /// the REPL's `require` (the app folder's).
    public static func dynamicImports(_ source: String) -> String { CommonJSDynamicImport.rewrite(source) }

    /// The names `source`'s top-level `let`, `const` and `class` declarations bind: names of the
    /// global scope that are no property of the global object, which the REPL's Tab completion
    /// must be told of (node asks V8's inspector for them; JavaScriptCore's C API has no such
    /// question).
    public static func lexicalNames(_ source: String) -> [String] {
        let tokens = SourceScanner(source).tokens
        let starts = statementStarts(tokens)
        var names: [String] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : tokens.count
            guard start + 1 < end else { continue }
            let keyword = tokens[start].text
            if keyword == "let" || keyword == "const" {
                names += declaration(tokens, from: start, to: end)?.1 ?? []
            } else if keyword == "class", tokens[start + 1].kind == .word, tokens[start + 1].text != "extends" {
                names.append(tokens[start + 1].text)
            }
        }
        return names
    }

    /// JavaScriptCore's messages for a script that stops where more was expected.
    static func endsEarly(_ problem: String) -> Bool {
        problem.contains("Unexpected end of script") || problem.contains("Unexpected EOF")
    }

    private static let declarations: Set<String> = ["var", "let", "const"]
    /// Statements whose value is not theirs to return (or that are not expressions at all).
    private static let statementWords: Set<String> = ["var", "let", "const", "function", "class", "if", "for", "while", "do", "try", "switch",
                                                      "return", "throw", "break", "continue", "import", "export", "async"]

    /// The async form, or nil when no rewrite compiles.
    static func asynchronous(_ source: String, tokens: [SourceScanner.Token], tracker: String, syntaxProblem: (String) -> String?) -> String? {
        let bytes = Array(source.utf8)
        let starts = statementStarts(tokens)
        var edits: [(at: Int, length: Int, text: String)] = []
        var hoisted: [String] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : tokens.count
            let token = tokens[start]
            if declarations.contains(token.text), start + 1 < end {
                guard let (declarationEdits, names) = declaration(tokens, from: start, to: end) else { return nil }
                edits += declarationEdits
                hoisted.append((token.text == "var" ? "var " : "let ") + names.joined(separator: ", ") + ";")
            } else if let named = namedDeclaration(tokens, at: start, end: end) {
                edits.append((tokens[named.keyword].start, 0, named.name + " = "))
                edits.append((tokens[named.close].end, 0, ";"))
                hoisted.append((tokens[named.keyword].text == "class" ? "let " : "var ") + named.name + ";")
            }
        }
        let prefix = hoisted.joined(separator: " ") + (hoisted.isEmpty ? "" : " ") + tracker + "((async () => {\n"
        let suffix = "\n})())"
        func apply(_ edits: [(at: Int, length: Int, text: String)]) -> String {
            var out = bytes
            // From the end, so offsets stay true; of two edits at one offset, the one listed first
            // ends up first.
            let ordered = edits.enumerated().sorted { $0.element.at != $1.element.at ? $0.element.at > $1.element.at : $0.offset > $1.offset }
            for (_, edit) in ordered {
                out.replaceSubrange(edit.at..<(edit.at + edit.length), with: Array(edit.text.utf8))
            }
            return prefix + String(decoding: out, as: UTF8.self) + suffix
        }
        // The last statement's value: the earliest statement start from which the rest compiles as
        // one `return (...)` is where the last expression statement begins.
        var lastToken = tokens.count - 1
        while lastToken >= 0, tokens[lastToken].text == ";", tokens[lastToken].depth == 0 { lastToken -= 1 }
        if lastToken >= 0 {
            for start in starts where start <= lastToken && !statementWords.contains(tokens[start].text) {
                let candidate = apply(edits + [(tokens[start].start, 0, "return ("), (tokens[lastToken].end, 0, ")")])
                if syntaxProblem(candidate) == nil { return candidate }
            }
        }
        let plain = apply(edits)
        return syntaxProblem(plain) == nil ? plain : nil
    }

    /// Indexes of the tokens that may start a top-level statement: the first, one after a `;`,
    /// and one on a new line after a token that can end a statement (automatic semicolons).
    static func statementStarts(_ tokens: [SourceScanner.Token]) -> [Int] {
        var starts: [Int] = tokens.isEmpty ? [] : [0]
        for index in tokens.indices.dropFirst() where tokens[index].depth == 0 {
            let previous = tokens[index - 1]
            if previous.depth == 0 && previous.text == ";" { starts.append(index); continue }
            guard tokens[index].newlineBefore, previous.depth == 0 else { continue }
            let endsValue: Bool
            switch previous.kind {
            case .number, .string, .template, .regex: endsValue = true
            case .word: endsValue = !SourceScanner.Token.continuingWords.contains(previous.text)
            case .punctuator: endsValue = [")", "]", "}", "++", "--"].contains(previous.text)
            }
            let continues: Bool
            switch tokens[index].kind {
            case .word: continues = ["in", "of", "instanceof"].contains(tokens[index].text)
            case .punctuator: continues = !["{", "++", "--", "!", "~"].contains(tokens[index].text)
            default: continues = false
            }
            if endsValue && !continues { starts.append(index) }
        }
        return starts
    }

    /// `const a = 1, {b, c: [d]} = f()` → `void ((a = 1), ({b, c: [d]} = f()))` and the names.
    private static func declaration(_ tokens: [SourceScanner.Token], from start: Int, to end: Int) -> ([(at: Int, length: Int, text: String)], [String])? {
        var end = end
        while end > start + 1, tokens[end - 1].text == ";", tokens[end - 1].depth == 0 { end -= 1 }
        var declarators: [Range<Int>] = []
        var first = start + 1
        for index in (start + 1)..<end where tokens[index].depth == 0 && tokens[index].text == "," {
            declarators.append(first..<index)
            first = index + 1
        }
        declarators.append(first..<end)
        var edits: [(at: Int, length: Int, text: String)] = [
            (tokens[start].start, tokens[start].end - tokens[start].start, declarators.count == 1 ? "void" : "void ("),
        ]
        var names: [String] = []
        for declarator in declarators {
            guard !declarator.isEmpty else { return nil }
            let assignment = declarator.first { tokens[$0].depth == 0 && tokens[$0].text == "=" }
            let pattern = declarator.lowerBound..<(assignment ?? declarator.upperBound)
            let found = bindingNames(tokens, pattern)
            guard !found.isEmpty else { return nil }
            names += found
            edits.append((tokens[declarator.lowerBound].start, 0, "("))
            edits.append((tokens[declarator.upperBound - 1].end, 0, assignment == nil ? " = undefined)" : ")"))
        }
        if declarators.count > 1 { edits.append((tokens[end - 1].end, 0, ")")) }
        return (edits, names)
    }

    /// The names a binding pattern declares: words not used as keys (`key:`) and not inside a
    /// default value (`= ...`) or a computed key.
    private static func bindingNames(_ tokens: [SourceScanner.Token], _ range: Range<Int>) -> [String] {
        var names: [String] = []
        var skipDepth: Int?
        for index in range {
            let token = tokens[index]
            if let depth = skipDepth {
                if token.depth == depth && (token.text == "," || token.text == "}" || token.text == "]") { skipDepth = nil } else { continue }
            }
            if token.text == "=" { skipDepth = token.depth; continue }
            guard token.kind == .word else { continue }
            if index + 1 < range.upperBound && tokens[index + 1].text == ":" { continue }
            if index > range.lowerBound && tokens[index - 1].text == "[" && tokens[index - 1].depth > 0 && index + 1 < range.upperBound
                && tokens[index + 1].text == "]" && index + 2 < range.upperBound && tokens[index + 2].text == ":" { continue }
            names.append(token.text)
        }
        return names
    }

    /// `function NAME`, `async function NAME` or `class NAME` starting at `start`: the keyword, the
    /// name and the closing brace of its body.
    private static func namedDeclaration(_ tokens: [SourceScanner.Token], at start: Int, end: Int) -> (keyword: Int, name: String, close: Int)? {
        var keyword = start
        if tokens[keyword].text == "async", keyword + 1 < end { keyword += 1 }
        guard tokens[keyword].text == "function" || tokens[keyword].text == "class" else { return nil }
        var nameIndex = keyword + 1
        if nameIndex < end, tokens[nameIndex].text == "*" { nameIndex += 1 }
        guard nameIndex < end, tokens[nameIndex].kind == .word else { return nil }
        // The body is the first top-level `{ ... }` after the name (a class's `extends` expression
        // may hold braces only inside brackets).
        guard let open = (nameIndex..<end).first(where: { tokens[$0].depth == 0 && tokens[$0].text == "{" }),
              let close = ((open + 1)..<end).first(where: { tokens[$0].depth == 0 && tokens[$0].text == "}" }) else { return nil }
        return (start, tokens[nameIndex].text, close)
    }
}

extension SourceScanner.Token {
    /// Words after which a line break cannot end a statement.
    static let continuingWords: Set<String> = ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
                                               "do", "else", "yield", "await", "var", "let", "const", "extends", "async", "function", "class"]
}
