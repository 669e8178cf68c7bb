/// Which of a transformed module's top-level bindings never change once its body has run: each is
/// declared once (`var`, `let`, `const`, `function` or `class` right before the name) and nowhere
/// written (`=` and the compound assignments, `++`/`--`, a destructuring target, a `for ... of/in`
/// head). An export bound to one can be a plain value on the namespace once the module has run
/// (``ModuleTransformer/liveExports(_:settle:)``), instead of a getter read at every use.
///
/// It reads tokens (``SourceScanner``), not a syntax tree, so it errs one way only: a name written
/// anywhere, or that it cannot follow (a second declaration, a shadowing parameter written in a
/// nested function, a class field of the same name, `eval` in the module), counts as changing and
/// stays live. Missing a write would make an import stale, so every doubt keeps the getter.
enum UnchangingBindings {
    /// The names of `candidates` that `code` declares once and never writes.
    static func find(_ candidates: Set<String>, in code: String) -> Set<String> {
        guard !candidates.isEmpty else { return [] }
        let scanner = SourceScanner(code)
        guard !scanner.isOpen, !scanner.isMismatched else { return [] }
        let tokens = scanner.tokens
        // A direct eval may write any binding in scope.
        if tokens.contains(where: { $0.kind == .word && $0.text == "eval" }) { return [] }
        var declarations: [String: Int] = [:]
        var written: Set<String> = []
        for index in tokens.indices where tokens[index].kind == .word && candidates.contains(tokens[index].text) {
            let name = tokens[index].text
            let previous = index > 0 ? tokens[index - 1] : nil
            if let previous, previous.kind == .punctuator, previous.text == "." || previous.text == "?." { continue }
            if let previous, isDeclaring(previous) || (previous.text == "*" && index > 1 && tokens[index - 2].text == "function") {
                declarations[name, default: 0] += 1
                continue
            }
            if let previous, previous.kind == .punctuator, previous.text == "++" || previous.text == "--" {
                written.insert(name)
            } else if writes(after: index, in: tokens) {
                written.insert(name)
            }
        }
        return candidates.filter { declarations[$0] == 1 && !written.contains($0) }
    }

    private static let declaringWords: Set<String> = ["var", "let", "const", "function", "class"]
    private static let assignments: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=",
                                                   "&&=", "||=", "??=", "++", "--"]
    /// How far a destructuring pattern is followed before the name counts as written anyway.
    private static let patternLimit = 10_000

    private static func isDeclaring(_ token: SourceScanner.Token) -> Bool {
        token.kind == .word && declaringWords.contains(token.text)
    }

    private static func isOpening(_ token: SourceScanner.Token) -> Bool {
        token.kind == .punctuator && (token.text == "(" || token.text == "[" || token.text == "{")
    }

    private static func isClosing(_ token: SourceScanner.Token) -> Bool {
        token.kind == .punctuator && (token.text == ")" || token.text == "]" || token.text == "}")
    }

    /// Whether the name at `index` is written: an assignment right after it, a `for` head's
    /// `of`/`in`, or a pattern around it (`[a, name] = ...`, `({ name } = ...)`, `(name) = ...`)
    /// that ends in one. The tokens after the name are followed through `,`-separated elements and
    /// closing brackets; anything else ends the pattern.
    private static func writes(after index: Int, in tokens: [SourceScanner.Token]) -> Bool {
        func endsPattern(_ token: SourceScanner.Token) -> Bool {
            (token.kind == .punctuator && assignments.contains(token.text)) || (token.kind == .word && (token.text == "of" || token.text == "in"))
        }
        var position = index + 1
        guard position < tokens.count else { return false }
        if endsPattern(tokens[position]) { return true }
        while position < tokens.count, position - index < patternLimit {
            let token = tokens[position]
            if token.kind == .punctuator && token.text == "," {
                // Skip the next element, brackets and all, up to the `,` or bracket that ends it.
                var depth = 0
                position += 1
                while position < tokens.count, position - index < patternLimit {
                    let inner = tokens[position]
                    if isOpening(inner) {
                        depth += 1
                    } else if isClosing(inner) {
                        if depth == 0 { break }
                        depth -= 1
                    } else if depth == 0 && inner.kind == .punctuator && (inner.text == "," || inner.text == ";") {
                        break
                    }
                    position += 1
                }
                guard position < tokens.count, position - index < patternLimit else { break }
                if tokens[position].text == ";" { return false }
            } else if isClosing(token) {
                guard position + 1 < tokens.count else { return false }
                let after = tokens[position + 1]
                if endsPattern(after) { return true }
                guard isClosing(after) || (after.kind == .punctuator && after.text == ",") else { return false }
                position += 1
            } else {
                return false
            }
        }
        // Too far to follow: take it as written.
        return position - index >= patternLimit
    }
}
