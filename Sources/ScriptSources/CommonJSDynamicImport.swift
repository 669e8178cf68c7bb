/// `import(x)` in a CommonJS file, made to work as node has it: a promise of the module's
/// namespace. JavaScriptCore compiles `import()` but, with no module loader behind its C API,
/// rejects every call ("Could not import the module"); an ES module's `import()` is rewritten by
/// esbuild, and CommonJS, which never goes through esbuild, is rewritten here: `import(` becomes
/// `require.import(`, the loader's import (js/runtime/modules.js), which resolves as an import
/// does and waits for a module's top-level await.
///
/// On tokens (``SourceScanner``), so that `import(` in a string, a comment or a template is left
/// alone, as are `x.import(...)` and a method named `import`. Nothing moves but the rest of each
/// line that holds a call (by the 8 characters of `require.`), so stack lines stay true.
enum CommonJSDynamicImport {
    static func rewrite(_ source: String) -> String {
        guard source.contains("import(") || source.contains("import (") else { return source }
        let scanner = SourceScanner(source)
        guard !scanner.isMismatched else { return source }
        let tokens = scanner.tokens
        var calls: [Int] = []
        for index in tokens.indices where tokens[index].kind == .word && tokens[index].text == "import" {
            guard index + 1 < tokens.count, tokens[index + 1].text == "(" else { continue }
            if index > 0, [".", "?.", "#"].contains(tokens[index - 1].text), tokens[index - 1].kind == .punctuator { continue }
            // A method named `import` (`import(x) {`): its parameters are followed by its body.
            let depth = tokens[index + 1].depth
            var close = index + 2
            while close < tokens.count, tokens[close].depth != depth { close += 1 }
            if close + 1 < tokens.count, tokens[close + 1].text == "{", tokens[close + 1].kind == .punctuator { continue }
            calls.append(tokens[index].start)
        }
        guard !calls.isEmpty else { return source }
        var bytes = Array(source.utf8)
        for offset in calls.reversed() { bytes.insert(contentsOf: Array("require.".utf8), at: offset) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
