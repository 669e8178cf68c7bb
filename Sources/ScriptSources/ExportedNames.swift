/// The names an ES module exports, read from the CommonJS the transform made of it (esbuild has
/// parsed the module and lists every export in one place), so that the loader can check an
/// importer's names before any module runs (``StaticImport``). `starExports` are the specifiers
/// of its `export * from "x"`, whose names (but `default`) it exports too.
///
/// The shapes read are those the transform writes: ``ModuleTransformer/liveExports(_:settle:)``'s
/// `__exportLive([names], ...)`, esbuild's own `__export(m_exports, {` block, and the
/// `__hybrid_define({ "name": () => local })` of a module that awaits at top level
/// (``TopLevelAwaitRewrite``); `__reExport(m_exports, require("x"), ...)` for each `export *`.
/// Code it cannot read so (an unexpected shape, an escape in a name, another `module.exports =`)
/// gives nil: the names are unknown, and nothing is checked against them.
public struct ExportedNames: Sendable, Equatable {
    public let names: [String]
    public let starExports: [String]

    public init(names: [String], starExports: [String] = []) {
        self.names = names
        self.starExports = starExports
    }

    public static func find(in code: String) -> ExportedNames? {
        var names: [String]?
        var stars: [String] = []
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if line.hasPrefix("module.exports = ") {
                if let list = line.firstRange(of: "require.helpers.__exportLive([") {
                    guard names == nil, let found = quotedList(line[list.upperBound...]) else { return nil }
                    names = found
                } else if !line.hasPrefix("module.exports = __toCommonJS(") {
                    return nil
                }
            } else if line.hasPrefix("__export("), line.hasSuffix("_exports, {") {
                guard names == nil else { return nil }
                var found: [String] = []
                while let entry = lines.popFirst(), entry != "});" {
                    guard entry.hasPrefix("  "), let arrow = entry.firstRange(of: ": () => "),
                          let name = key(entry[entry.index(entry.startIndex, offsetBy: 2)..<arrow.lowerBound]) else { return nil }
                    found.append(name)
                }
                names = found
            } else if let define = line.firstRange(of: "__hybrid_define({"), line[..<define.lowerBound].allSatisfy({ $0 == " " }) {
                guard names == nil, let found = defined(line[define.upperBound...]) else { return nil }
                names = found
            } else if line.hasPrefix("__reExport("), let call = line.firstRange(of: ", require(\"") {
                let rest = line[call.upperBound...]
                guard let end = rest.firstIndex(of: "\""), !rest[..<end].contains("\\") else { return nil }
                stars.append(String(rest[..<end]))
            }
        }
        return ExportedNames(names: names ?? [], starExports: stars)
    }

    /// `"a", "b"]...`: the strings up to the `]` (the transform writes them without escapes).
    private static func quotedList(_ text: Substring) -> [String]? {
        var rest = text
        var names: [String] = []
        while !rest.hasPrefix("]") {
            guard rest.hasPrefix("\""), let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            guard !name.contains("\\") else { return nil }
            names.append(String(name))
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(", ") { rest = rest.dropFirst(2) } else if !rest.hasPrefix("]") { return nil }
        }
        return names
    }

    /// An object key as esbuild prints it: an identifier, or a string without escapes.
    private static func key(_ text: Substring) -> String? {
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
            let inner = text.dropFirst().dropLast()
            return inner.contains("\"") || inner.contains("\\") ? nil : String(inner)
        }
        let identifier = !text.isEmpty && text.allSatisfy { $0 == "_" || $0 == "$" || $0.isLetter || $0.isNumber }
        return identifier ? String(text) : nil
    }

    /// ` "a": () => a, "b": () => import_x.b });`: the names (each a key, see ``key(_:)``).
    private static func defined(_ text: Substring) -> [String]? {
        var rest = text.drop { $0 == " " }
        var names: [String] = []
        while !rest.hasPrefix("}") {
            guard let arrow = rest.firstRange(of: ": () => "), let name = key(rest[..<arrow.lowerBound]) else { return nil }
            names.append(name)
            rest = rest[arrow.upperBound...].drop { $0 == "_" || $0 == "$" || $0 == "." || $0.isLetter || $0.isNumber }
            if rest.hasPrefix(", ") { rest = rest.dropFirst(2) } else { rest = rest.drop { $0 == " " } }
            guard rest.hasPrefix("}") || rest.hasPrefix("\"") || rest.first.map({ $0 == "_" || $0 == "$" || $0.isLetter }) == true else { return nil }
        }
        return names
    }
}
