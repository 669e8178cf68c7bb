/// How a module file is evaluated, decided as Node decides it: by its extension (`.mjs`/`.mts`
/// ES module, `.cjs`/`.cts` CommonJS, `.json` data), else by the `"type"` of the nearest
/// `package.json` (`"module"` or `"commonjs"`; with none, a `.ts` is an ES module and a `.js`
/// CommonJS): ``ModuleResolver/format(of:)``.
public enum ModuleFormat: String, Sendable, Equatable {
    case commonJS = "commonjs"
    case module
    case json

    /// The format `filename`'s extension alone decides; nil for `.js`, `.ts` and any other, which
    /// the nearest `package.json` decides.
    public init?(extensionOf filename: String) {
        if filename.hasSuffix(".mjs") || filename.hasSuffix(".mts") {
            self = .module
        } else if filename.hasSuffix(".cjs") || filename.hasSuffix(".cts") {
            self = .commonJS
        } else if filename.hasSuffix(".json") {
            self = .json
        } else {
            return nil
        }
    }

    /// Whether a line starts with an `import` or `export` statement (not `import(` or
    /// `import.meta`): node's syntax detection, for a `.js` file no package.json types.
    public static func hasModuleSyntax(_ source: String) -> Bool {
        for line in source.split(separator: "\n") {
            let text = line.drop { $0 == " " || $0 == "\t" }
            for keyword in ["import", "export"] where text.hasPrefix(keyword) {
                let next = text.dropFirst(keyword.count).first
                if next == " " || next == "{" || next == "*" || next == "\"" || next == "'" { return true }
            }
        }
        return false
    }
}

/// The language a source file is written in, from its extension.
public enum SourceLanguage: String, Sendable, Equatable {
    case javaScript = "js"
    case typeScript = "ts"
    case json

    public init(filename: String) {
        if filename.hasSuffix(".ts") || filename.hasSuffix(".mts") || filename.hasSuffix(".cts") {
            self = .typeScript
        } else if filename.hasSuffix(".json") {
            self = .json
        } else {
            self = .javaScript
        }
    }
}
