/// How a module file is evaluated, decided as Node decides it: by its extension (`.mjs`/`.mts`
/// ES module, `.cjs`/`.cts` CommonJS, `.json` data), else by the `"type"` of the nearest
/// `package.json` (`"module"` or `"commonjs"`, the default).
public enum ModuleFormat: String, Sendable, Equatable {
    case commonJS = "commonjs"
    case module
    case json
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
