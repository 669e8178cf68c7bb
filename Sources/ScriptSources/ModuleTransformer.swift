import Crypto
import Foundation
import JSON
import SystemIO

/// What the loader compiles for one source file: CommonJS-shaped JavaScript (the host's module
/// system) and, when it was transformed, the source map back to the file the author wrote.
public struct CompiledSource: Sendable, Equatable {
    public let code: String
    /// A v3 source map (JSON text) from `code` to the source file, when made by this transform;
    /// nil for untransformed code, and for code read from the cache (see `sourceMapFile`).
    public let sourceMap: String?
    /// Where a cached transform's map is: read only when a stack is mapped, so that a warm
    /// start reads one file per module.
    public var sourceMapFile: String? = nil
    /// How the source was written: `.module` when it is an ES module (its `require` then resolves
    /// with the `import` conditions, and CommonJS it imports is seen as Node shows it).
    public let format: ModuleFormat
    /// The module awaits at top level: its code is an async function body (see ARCHITECTURE.md,
    /// "ES modules and TypeScript").
    public let topLevelAwait: Bool

    /// The map's JSON text, from memory or from the cache.
    public func sourceMapText() -> String? {
        if let sourceMap { return sourceMap }
        return sourceMapFile.flatMap { try? FileSystem.textIfPresent(atPath: $0) }
    }
}

/// A source file that cannot be transformed: esbuild's first diagnostic, with the line and
/// column (both from 1, as JavaScriptCore and node count) in the author's source, and the rest.
public struct TransformError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var line: Int? = nil
    public var column: Int? = nil
    /// Further diagnostics, each `path:line:column: message`.
    public var more: [String] = []

    public init(path: String, reason: String, line: Int? = nil, column: Int? = nil, more: [String] = []) {
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column
        self.more = more
    }

    public var description: String {
        let location = line.map { ":\($0):\(column ?? 1)" } ?? ""
        return ([path + location + ": " + reason] + more).joined(separator: "\n")
    }
}

/// Turns TypeScript and ES modules into the CommonJS the host's module system runs, with esbuild,
/// and remembers the result by content hash so that only a changed file costs a transform.
///
/// - Plain CommonJS JavaScript is returned as it is, but for its `import()` calls
///   (``CommonJSDynamicImport``), without esbuild or the cache.
/// - ES modules (`import`/`export`) become CommonJS whose exports are getters (live bindings) and
///   whose imports are read through the required module at each use (live as well); cycles behave
///   as in Node's CommonJS plus hoisted function exports. `import.meta` becomes a per-module
///   object; dynamic `import()` becomes a promise of `require`.
/// - TypeScript: types stripped, `enum` and `namespace` compiled (esbuild's TypeScript loader).
/// - Top-level `await`, which esbuild refuses when it writes CommonJS, takes a second path: the
///   module is first printed as one ES module scope, its body moved into an async function that
///   defines the exports first, then converted (``TopLevelAwaitRewrite``).
///
/// The cache folder holds `<sha256>.js` and `<sha256>.js.map`; the hash covers the source, its
/// path, its format, the transform's options and the esbuild binary (path, size and time), so a
/// new esbuild or a new host version never reads an old entry.
///
/// A cold start would spawn esbuild once per module (11–13 ms each). So the first file that
/// misses the cache brings its companions (the loader's ``CompanionFiles``: the other module
/// files of its app) and those missing too are transformed in one esbuild run
/// (``transformAll(_:)``), each cached under the key its own transform would have.
///
/// Shared across threads (a patch is compiled on a worker while the app's loader uses its own):
/// what it finds out once (esbuild's path and stamp) is kept behind a lock, and `companions` must
/// be callable from the thread that compiles.
public final class ModuleTransformer: Sendable {
    public let cacheDirectory: String?
    /// esbuild's path, found on first use (an app of plain CommonJS never looks for it at
    /// start-up), and its stamp for the cache key, read once.
    private let found = Locked<(esbuild: String??, stamp: String?)>((nil, nil))
    private let findEsbuild: @Sendable () -> String?
    /// The files to transform together with one that misses the cache; nil: one at a time.
    private let companions: (@Sendable (String) -> [ModuleSourceFile])?

    private var esbuild: String? {
        found.withLock { found in
            if let esbuild = found.esbuild { return esbuild }
            let esbuild = findEsbuild()
            found.esbuild = .some(esbuild)
            return esbuild
        }
    }

    /// The cache folder: `$HYBRID_CACHE_DIR`, else `$XDG_CACHE_HOME/hybrid/modules`, else
    /// `~/.cache/hybrid/modules`.
    public static func defaultCacheDirectory(environment: (String) -> String? = { ProcessEnvironment[$0] }) -> String? {
        if let explicit = environment("HYBRID_CACHE_DIR"), !explicit.isEmpty { return explicit }
        if let xdg = environment("XDG_CACHE_HOME"), !xdg.isEmpty { return xdg + "/hybrid/modules" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.cache/hybrid/modules" }
        return nil
    }

    /// `$HYBRID_ESBUILD`, else `esbuild` on PATH.
    public static func findEsbuild(environment: (String) -> String? = { ProcessEnvironment[$0] }) -> String? {
        if let explicit = environment("HYBRID_ESBUILD"), !explicit.isEmpty { return explicit }
        for folder in (environment("PATH") ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(folder) + "/esbuild"
            if FileSystem.kind(of: candidate) == .file { return candidate }
        }
        return nil
    }

    public init(cacheDirectory: String? = ModuleTransformer.defaultCacheDirectory(), esbuild: String?? = nil,
                companions: (@Sendable (String) -> [ModuleSourceFile])? = nil) {
        self.cacheDirectory = cacheDirectory
        findEsbuild = { esbuild ?? ModuleTransformer.findEsbuild() }
        self.companions = companions
    }

    /// Whether `compile` runs esbuild for such a file (else the source is returned as it is).
    public static func needsTransform(path: String, format: ModuleFormat) -> Bool {
        format == .module || SourceLanguage(filename: path) == .typeScript
    }

    /// `asynchronous`: the async-body form even without top-level await, for an ES module that
    /// imports one that awaits (the loader asks for it when it finds that out).
    public func compile(path: String, source: String, format: ModuleFormat, asynchronous: Bool = false) throws(TransformError) -> CompiledSource {
        guard Self.needsTransform(path: path, format: format) else {
            let code = format == .commonJS ? CommonJSDynamicImport.rewrite(source) : source
            return CompiledSource(code: code, sourceMap: nil, format: format, topLevelAwait: false)
        }
        let esbuild = try esbuildPath(for: path)
        let key = cacheKey(path: path, source: source, format: format, asynchronous: asynchronous, esbuild: esbuild)
        if let cached = readCache(key: key, format: format) { return cached }
        if !asynchronous, let companions {
            transformAll([ModuleSourceFile(path: path, source: source, format: format)] + companions(path))
            if let cached = readCache(key: key, format: format) { return cached }
        }
        let compiled = try transform(path: path, source: source, format: format, asynchronous: asynchronous, esbuild: esbuild)
        writeCache(key: key, compiled)
        return compiled
    }

    /// One input typed at `hybrid repl` in TypeScript, as the script it means: types stripped,
    /// `enum` and `namespace` compiled, statements otherwise as typed (top-level `await`
    /// included), so the REPL reads the result as it reads JavaScript. Not cached: inputs are small
    /// and rarely typed twice.
    public func scriptFromTypeScript(_ source: String) throws(TransformError) -> String {
        let path = "REPL.ts"
        let esbuild = try esbuildPath(for: path)
        let result = try run(esbuild, [
            "--loader=ts", "--sourcefile=\(path)", "--platform=neutral", "--charset=utf8", "--log-level=error", "--color=false",
            "--tsconfig-raw=" + Self.compilerOptions,
        ], source: source, path: path)
        guard result.status == 0 else { throw Self.diagnostics(result.errors, path: path) }
        return result.output
    }

    /// Transforms the files missing from the cache in one esbuild run per extension and format,
    /// and caches each as ``compile(path:source:format:asynchronous:)`` would: same key, same
    /// bytes (see ``TransformBatch``). Returns how many it cached. Never fails: a file it cannot
    /// transform (top-level await, a syntax error) is left to `compile`, which reports the error.
    @discardableResult
    public func transformAll(_ files: [ModuleSourceFile]) -> Int {
        guard let folder = cacheDirectory, let esbuild, let tsconfig = tsconfigFile() else { return 0 }
        var seen: Set<String> = []
        let missing = files.compactMap { file -> (file: ModuleSourceFile, key: String)? in
            guard seen.insert(file.path).inserted, Self.needsTransform(path: file.path, format: file.format) else { return nil }
            let key = cacheKey(path: file.path, source: file.source, format: file.format, asynchronous: false, esbuild: esbuild)
            return FileSystem.kind(of: "\(folder)/\(key).js") == .file ? nil : (file, key)
        }
        // One file is the single transform's job: a batch costs a scan and a copy more.
        guard missing.count > 1 else { return 0 }
        let batch = TransformBatch(esbuild: esbuild) { Self.sharedOptions + Self.commonJSOptions($0, tsconfigFile: tsconfig) }
        let results = batch.transform(missing.map(\.file)) { Self.compiled($0, format: $1) }
        var cached = 0
        for (file, key) in missing {
            guard let compiled = results[file.path] else { continue }
            writeCache(key: key, compiled)
            cached += 1
        }
        return cached
    }

    // MARK: - esbuild

    private func esbuildPath(for path: String) throws(TransformError) -> String {
        guard let esbuild else {
            throw TransformError(path: path, reason: "cannot run \(SourceLanguage(filename: path) == .typeScript ? "TypeScript" : "an ES module") without esbuild, which strips types and converts modules; install it (Debian: apt-get install esbuild, or scripts/install-deps) or set HYBRID_ESBUILD")
        }
        return esbuild
    }

    /// The options a single-file transform (from stdin) takes.
    private static func options(path: String, loader: String) -> [String] {
        ["--loader=\(loader)", "--sourcefile=\(path)"] + sharedOptions
    }

    /// The options every transform shares, single or batch. `import.meta` is a per-module object
    /// the loader hands over (`module.meta`), named on line 1 beside the code so that line numbers
    /// stay true.
    private static let sharedOptions = [
        "--sourcemap=inline", "--sources-content=false", "--platform=neutral", "--charset=utf8", "--log-level=error", "--color=false",
        "--define:import.meta=__hybrid_import_meta",
    ]

    /// Class fields are defined, not assigned, as TypeScript does for ES2022 and later targets.
    /// A single-file transform takes the setting inline; a bundle pass only from a file.
    private static let compilerOptions = "{\"compilerOptions\":{\"useDefineForClassFields\":true}}"

    private func tsconfigFile() -> String? {
        guard let folder = cacheDirectory else { return nil }
        let path = folder + "/tsconfig.json"
        if FileSystem.kind(of: path) != .file {
            try? FileSystem.createDirectories(folder)
            try? FileSystem.write(Self.compilerOptions, to: path)
        }
        return FileSystem.kind(of: path) == .file ? path : nil
    }

    /// An ES module is strict code: "use strict" leads the module function (a directive, on line 1
    /// with `import.meta`, so that line numbers stay true). A batch (esbuild's build mode, files as
    /// entry points) says the same in its own words: the compiler options as a file, the banner
    /// per output type.
    private static func commonJSOptions(_ format: ModuleFormat, tsconfigFile: String? = nil) -> [String] {
        let banner = (format == .module ? "\"use strict\";" : "") + "var __hybrid_import_meta = module.meta;"
        let settings = tsconfigFile.map { ["--tsconfig=" + $0, "--banner:js=" + banner] } ?? ["--tsconfig-raw=" + compilerOptions, "--banner=" + banner]
        return settings + ["--format=cjs", "--supported:dynamic-import=false"]
    }

    private func transform(path: String, source: String, format: ModuleFormat, asynchronous: Bool, esbuild: String) throws(TransformError) -> CompiledSource {
        let loader = SourceLanguage(filename: path) == .typeScript ? "ts" : "js"
        if !asynchronous {
            let first = try run(esbuild, Self.options(path: path, loader: loader) + Self.commonJSOptions(format), source: source, path: path)
            if first.status == 0 { return Self.compiled(first.output, format: format) }
            guard first.errors.contains("Top-level await is currently not supported with the \"cjs\" output format") else {
                throw Self.diagnostics(first.errors, path: path)
            }
        }
        // Top-level await: one ES module scope first (imports on top, exports listed at the end),
        // then its body moved into an async function, then CommonJS. The second transform reads
        // the first one's inline source map, so the final map still points at the author's file.
        let scope = try run(esbuild, Self.options(path: path, loader: loader) + [
            "--format=esm", "--bundle", "--external:*", "--supported:dynamic-import=true",
        ] + (tsconfigFile().map { ["--tsconfig=" + $0] } ?? []), source: source, path: path)
        guard scope.status == 0 else { throw Self.diagnostics(scope.errors, path: path) }
        // Where each top-level await waits, for a module that never settles (esbuild lists them).
        let sites = try run(esbuild, TopLevelAwaitRewrite.siteOptions, source: scope.output, path: path)
        let marked = TopLevelAwaitRewrite.marking(scope.output, diagnostics: sites.errors)
        let rewritten: String
        do {
            rewritten = try TopLevelAwaitRewrite.rewrite(marked)
        } catch {
            throw TransformError(path: path, reason: "\(error)")
        }
        var second = try run(esbuild, Self.options(path: path, loader: "js") + Self.commonJSOptions(format), source: rewritten, path: path)
        if second.status != 0, marked != scope.output, let unmarked = try? TopLevelAwaitRewrite.rewrite(scope.output) {
            // The marks are read on tokens: should one ever break the code, the module runs unmarked.
            second = try run(esbuild, Self.options(path: path, loader: "js") + Self.commonJSOptions(format), source: unmarked, path: path)
        }
        guard second.status == 0 else { throw Self.diagnostics(second.errors, path: path) }
        return Self.naming(path, in: Self.compiled(second.output, format: format, topLevelAwait: true))
    }

    /// The map names `path` as its one source, as the one-pass transform's does: esbuild names
    /// the source of a map it chains relative to its working folder, which the cache key leaves
    /// out (run from `/b`, `/b/tla.js` was written `b/tla.js`, and read as `/b/b/tla.js`).
    private static func naming(_ path: String, in compiled: CompiledSource) -> CompiledSource {
        guard let text = compiled.sourceMap, case .object(var map)? = try? JSONParser.parse(text) else { return compiled }
        map["sources"] = [.string(path)]
        return CompiledSource(code: compiled.code, sourceMap: JSONWriter.write(.object(map)), format: compiled.format,
                              topLevelAwait: compiled.topLevelAwait)
    }

    /// esbuild's output as the loader takes it: the host's hooks in, the inline map out. The one
    /// post-processing of every transform, single or batch, so that both cache the same bytes.
    private static func compiled(_ output: String, format: ModuleFormat, topLevelAwait: Bool = false) -> CompiledSource {
        let (code, map) = splitInlineMap(hostHooks(output, topLevelAwait: topLevelAwait))
        return CompiledSource(code: code, sourceMap: map, format: format, topLevelAwait: topLevelAwait)
    }

    /// Four of esbuild's CommonJS helpers changed for the loader: `__toESM` (how an ES module sees
    /// what it imports: node's rules, and a module converted from ESM seen as its live namespace),
    /// `__toCommonJS` (the exports object is a namespace object, as node prints it), and the
    /// `import()` expansion (`require.dynamic`, which waits for a module's top-level await), all
    /// handed over through the module's own `require`; and `__defProp`, whose exports become
    /// configurable, so that a patch can amend an ES module's exported function. Columns stay
    /// where they were on the lines that matter (`import()` calls).
    static func hostHooks(_ code: String, topLevelAwait: Bool = false) -> String {
        var code = sharingHelpers(liveExports(lazyImportMeta(flatEnums(code)), settle: !topLevelAwait))
        if let helper = code.range(of: esbuildToCommonJS) {
            code.replaceSubrange(helper, with: "var __toCommonJS = (mod) => __copyProps(require.namespace(), mod);")
        }
        if let helper = code.range(of: "var __defProp = Object.defineProperty;") {
            code.replaceSubrange(helper, with: "var __defProp = (o, k, d) => Object.defineProperty(o, k, { ...d, configurable: true });")
        }
        if let helper = code.range(of: "var __toESM = (") {
            code.replaceSubrange(helper, with: "var __toESM = require.interop, __esbuildToESM = (")
        }
        let dynamic = "Promise.resolve().then(() => __toESM(require("
        let padded = "require.dynamic(       () => __toESM(require("
        return code.contains(dynamic) ? code.replacingOccurrences(of: dynamic, with: padded) : code
    }

    private static let esbuildToCommonJS = "var __toCommonJS = (mod) => __copyProps(__defProp({}, \"__esModule\", { value: true }), mod);"

    /// esbuild's runtime helpers the loader defines once (`require.helpers`, js/runtime/modules.js),
    /// with the changes above. Each module would otherwise compile its own copies: some ten small
    /// functions per module, most of what a warm start of a TypeScript app cost beyond plain JS.
    static let sharedHelpers: Set<String> = [
        "__create", "__defProp", "__getOwnPropDesc", "__getOwnPropNames", "__getProtoOf", "__hasOwnProp",
        "__export", "__copyProps", "__reExport", "__toESM", "__toCommonJS",
    ]

    /// The helper definitions esbuild prints after the banner line (`var __export = ...;`, its body
    /// indented or closing at column 0) become one line that takes them from `require.helpers`,
    /// and blank lines, so that every line after stays where the source map says. A helper this
    /// host does not share (`__decorateClass`, ...) ends the run of shared ones; the rest stays.
    /// Only the helpers the code after them names are taken (after ``liveExports`` most modules
    /// name none): each is a property read and a binding JavaScriptCore makes at every load.
    static func sharingHelpers(_ code: String) -> String {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 1
        var names: [String] = []
        while index < lines.count, let name = helperName(lines[index]) {
            names.append(name)
            index += 1
            while index < lines.count, let first = lines[index].first, first == " " || first == "}" || first == ")" { index += 1 }
        }
        guard !names.isEmpty else { return code }
        let rest = lines[index...].joined(separator: "\n")
        let taken = names.filter { mentions(rest, $0) }.map { "\($0) = require.helpers.\($0.prefix { !$0.isNumber })" }
        let declaration = taken.isEmpty ? "" : "var \(taken.joined(separator: ", "));"
        lines.replaceSubrange(1..<index, with: [declaration[...]] + Array(repeating: ""[...], count: index - 2))
        return lines.joined(separator: "\n")
    }

    /// Whether `code` has `name` as a whole word (not `__export` inside `__exportLive`). A name in
    /// a string or a comment counts too: the helper is then taken without need, which is harmless.
    private static func mentions(_ code: String, _ name: String) -> Bool {
        func partOfIdentifier(_ character: Character) -> Bool { character == "_" || character == "$" || character.isLetter || character.isNumber }
        var searchStart = code.startIndex
        while let found = code.range(of: name, range: searchStart..<code.endIndex) {
            let before = found.lowerBound == code.startIndex ? nil : code[code.index(before: found.lowerBound)]
            let after = found.upperBound == code.endIndex ? nil : code[found.upperBound]
            if !(before.map(partOfIdentifier) ?? false) && !(after.map(partOfIdentifier) ?? false) { return true }
            searchStart = found.upperBound
        }
        return false
    }

    /// esbuild's exports block, `var m_exports = {};`, `__export(m_exports, { name: () => binding,
    /// ... });`, `module.exports = __toCommonJS(m_exports);`, becomes one call that makes the same
    /// namespace (`require.helpers.__exportLive`, js/runtime/modules.js): the same names, in the
    /// same order, each a getter reading the binding at every use (live), enumerable and
    /// configurable. It reads the bindings through one function per module instead of one arrow
    /// per export plus a second getter per export on the namespace: each function literal costs
    /// JavaScriptCore a compile, a tenth of a warm start of a TypeScript app of small modules.
    /// The block's other lines are left blank, so that every line after stays where the source
    /// map says. Any other shape (a getter that is not a plain binding, a quoted name with an
    /// escape, the exports object used elsewhere, as `export *` does) is left as esbuild wrote it.
    static func liveExports(_ code: String, settle: Bool = true) -> String {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("var ") && $0.hasSuffix("_exports = {};") }) else { return code }
        let object = lines[start].dropFirst(4).dropLast(" = {};".count)
        // esbuild's own helpers are defined above, so the names below are esbuild's, not the author's.
        let helpers = lines[..<start]
        guard helpers.contains("var __export = (target, all) => {"), helpers.contains(Self.esbuildToCommonJS[...]),
              isIdentifier(object), start + 3 < lines.count, lines[start + 1] == "__export(\(object), {" else { return code }
        var entries: [(name: Substring, binding: Substring)] = []
        var index = start + 2
        while index + 1 < lines.count, lines[index] != "});" {
            guard let entry = exportEntry(lines[index]), entry.last == (lines[index + 1] == "});") else { return code }
            entries.append((entry.name, entry.binding))
            index += 1
        }
        guard !entries.isEmpty, index + 1 < lines.count, lines[index] == "});", lines[index + 1] == "module.exports = __toCommonJS(\(object));",
              code.components(separatedBy: object).count == 4 else { return code }
        // The exports object's name is used nowhere else, so it cannot shadow a binding read here.
        let names = entries.map { $0.name.hasPrefix("\"") ? String($0.name) : "\"\($0.name)\"" }.joined(separator: ", ")
        let cases = entries.enumerated().map { "case \($0.offset): return \($0.element.binding);" }.joined(separator: " ")
        let unchanging = settle ? UnchangingBindings.find(Set(entries.map { String($0.binding) }), in: code) : []
        let settled = entries.map { unchanging.contains(String($0.binding)) }
        let mask = settled.contains(true) ? ", \"" + settled.map { $0 ? "1" : "0" }.joined() + "\"" : ""
        let call = "module.exports = require.helpers.__exportLive([\(names)], (\(object)) => { switch (\(object)) { \(cases) } }\(mask));"
        lines.replaceSubrange(start...(index + 1), with: [call[...]] + Array(repeating: ""[...], count: index + 1 - start))
        if !mask.isEmpty {
            // After the body's last statement (before esbuild's inline map, if any), so no line moves.
            let values = zip(entries, settled).filter(\.1).map { String($0.0.binding) }.joined(separator: ", ")
            let end = lines.lastIndex { $0.hasPrefix(inlineMapPrefix) } ?? lines.endIndex
            lines.insert("require.helpers.__exportSettle(module.exports, [\(values)]);", at: end)
        }
        return lines.joined(separator: "\n")
    }

    /// `  name: () => binding,` (the comma but on the last): the name, an identifier or a string
    /// without escapes, and the binding, an identifier or a property path (`import_x.name`).
    private static func exportEntry(_ line: Substring) -> (name: Substring, binding: Substring, last: Bool)? {
        guard line.hasPrefix("  "), let arrow = line.range(of: ": () => ") else { return nil }
        let name = line[line.index(line.startIndex, offsetBy: 2)..<arrow.lowerBound]
        var binding = line[arrow.upperBound...]
        let last = !binding.hasSuffix(",")
        if !last { binding = binding.dropLast() }
        let quoted = name.count >= 2 && name.hasPrefix("\"") && name.hasSuffix("\"") && !name.dropFirst().dropLast().contains { $0 == "\"" || $0 == "\\" }
        guard quoted || (isIdentifier(name) && name != "__proto__"),
              !binding.isEmpty, binding.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isIdentifier) else { return nil }
        return (name, binding, last)
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, !first.isNumber else { return false }
        return text.allSatisfy { $0 == "_" || $0 == "$" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// A top-level `enum` whose members are literals, which esbuild writes as an arrow called at
    /// once (`var Kind = ((Kind2) => { Kind2[Kind2["A"] = 0] = "A"; return Kind2; })(Kind || {});`),
    /// becomes a block with the same alias: `var Kind = Kind || {}; { const Kind2 = Kind;`, the
    /// member lines untouched, `}`. The same object, filled by the same statements in the same
    /// scope, without a function for JavaScriptCore to compile and call per enum. Only the first
    /// and the last two lines of the enum change, and no line moves. An enum with computed members,
    /// or inside a namespace or a function, is left as esbuild wrote it.
    static func flatEnums(_ code: String) -> String {
        guard code.contains(" = /* @__PURE__ */ ((") else { return code }
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        var changed = false
        var index = 0
        while index < lines.count {
            guard let head = enumHead(lines[index]) else {
                index += 1
                continue
            }
            let (name, alias) = head
            var end = index + 1
            while end < lines.count, isLiteralEnumMember(lines[end], alias: alias) { end += 1 }
            guard end > index + 1, end + 1 < lines.count, lines[end] == "  return \(alias);", lines[end + 1] == "})(\(name) || {});" else {
                index += 1
                continue
            }
            lines[index] = "var \(name) = \(name) || {}; { const \(alias) = \(name);"
            lines[end] = "}"
            lines[end + 1] = ""
            changed = true
            index = end + 2
        }
        return changed ? lines.joined(separator: "\n") : code
    }

    /// `var Kind = /* @__PURE__ */ ((Kind2) => {` at column 0: the enum's name and its alias.
    private static func enumHead(_ line: Substring) -> (Substring, Substring)? {
        guard line.hasPrefix("var "), line.hasSuffix(") => {"), let equals = line.range(of: " = /* @__PURE__ */ ((") else { return nil }
        let name = line[line.index(line.startIndex, offsetBy: 4)..<equals.lowerBound]
        let alias = line[equals.upperBound..<line.index(line.endIndex, offsetBy: -") => {".count)]
        return isIdentifier(name) && isIdentifier(alias) ? (name, alias) : nil
    }

    /// `  Kind2[Kind2["A"] = 0] = "A";` (a number) or `  Kind2["A"] = "a";` (a string), names
    /// and strings without escapes, numbers as esbuild prints them.
    private static func isLiteralEnumMember(_ line: Substring, alias: Substring) -> Bool {
        func quoted(_ text: Substring) -> Bool {
            text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") && !text.dropFirst().dropLast().contains { $0 == "\"" || $0 == "\\" }
        }
        func number(_ text: Substring) -> Bool {
            let digits = text.hasPrefix("-") ? text.dropFirst() : text
            return digits.first.map { $0.isASCII && $0.isNumber } == true && !text.contains(" ") && Double(text) != nil
        }
        let numbered = "  \(alias)[\(alias)["
        if line.hasPrefix(numbered), line.hasSuffix(";") {
            let body = line.dropFirst(numbered.count).dropLast()
            guard let first = body.range(of: "] = "), let second = body[first.upperBound...].range(of: "] = ") else { return false }
            let key = body[..<first.lowerBound], value = body[first.upperBound..<second.lowerBound], name = body[second.upperBound...]
            return quoted(key) && key == name && number(value)
        }
        let named = "  \(alias)["
        guard line.hasPrefix(named), line.hasSuffix(";"), let close = line.range(of: "] = ") else { return false }
        return quoted(line[line.index(line.startIndex, offsetBy: named.count)..<close.lowerBound]) && quoted(line[close.upperBound...].dropLast())
    }

    /// The banner's `var __hybrid_import_meta = module.meta;` is dropped when the module never
    /// reads `import.meta`: `module.meta` is made on first use (`importMeta`, a `require` of its
    /// own and a URL), and reading it eagerly made one for every module. The banner is a line of
    /// its own with no mappings, so nothing after it moves.
    static func lazyImportMeta(_ code: String) -> String {
        let declaration = "var __hybrid_import_meta = module.meta;\n"
        guard let banner = code.range(of: declaration), !code[banner.upperBound...].contains("__hybrid_import_meta"),
              !code[..<banner.lowerBound].contains("__hybrid_import_meta") else { return code }
        return code.replacingCharacters(in: banner, with: "\n")
    }

    /// `__export` (or esbuild's renamed `__export2`) for a line `var __export = ...` defining a
    /// shared helper; nil otherwise.
    private static func helperName(_ line: Substring) -> String? {
        guard line.hasPrefix("var __") else { return nil }
        let rest = line.dropFirst(4)
        guard let end = rest.firstIndex(of: " "), rest[end...].hasPrefix(" = ") else { return nil }
        let name = String(rest[..<end])
        return sharedHelpers.contains(String(name.prefix { !$0.isNumber })) ? name : nil
    }

    private func run(_ esbuild: String, _ arguments: [String], source: String, path: String) throws(TransformError) -> (status: Int32, output: String, errors: String) {
        do {
            let result = try ChildProcess.run(esbuild, arguments, input: Array(source.utf8))
            return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errorOutput, as: UTF8.self))
        } catch {
            throw TransformError(path: path, reason: "\(error)")
        }
    }

    /// esbuild's error report without its decorations: each `✘ [ERROR] message` and the
    /// `file:line:column:` under it (esbuild counts columns from 0; we report them from 1).
    static func diagnostics(_ text: String, path: String) -> TransformError {
        var found: [(reason: String, line: Int?, column: Int?)] = []
        var pending: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("✘ [ERROR] ") {
                if let pending { found.append((pending, nil, nil)) }
                pending = String(trimmed.dropFirst("✘ [ERROR] ".count))
            } else if let reason = pending, let (line, column) = Self.location(trimmed) {
                found.append((reason, line, column))
                pending = nil
            }
        }
        if let pending { found.append((pending, nil, nil)) }
        guard let first = found.first else { return TransformError(path: path, reason: "esbuild failed: \(text)") }
        let more = found.dropFirst().map { item in
            let location = item.line.map { ":\($0):\(item.column ?? 1)" } ?? ""
            return "\(path)\(location): \(item.reason)"
        }
        return TransformError(path: path, reason: first.reason, line: first.line, column: first.column, more: Array(more))
    }

    /// The line and column (from 1) of a `file:line:column:` line as esbuild prints it, or nil.
    private static func location(_ line: String) -> (Int, Int)? {
        guard line.hasSuffix(":") else { return nil }
        let parts = line.dropLast().split(separator: ":")
        guard parts.count >= 3, let column = Int(parts[parts.count - 1]), let number = Int(parts[parts.count - 2]) else { return nil }
        return (number, column + 1)
    }

    private static let inlineMapPrefix = "//# sourceMappingURL=data:application/json;base64,"

    /// The code without its trailing inline source map comment, and the map's JSON text (a
    /// patch's transformed module carries its map so).
    public static func splitInlineMap(_ output: String) -> (code: String, map: String?) {
        guard let range = output.range(of: inlineMapPrefix, options: .backwards) else { return (output, nil) }
        let encoded = output[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        let map = Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
        return (String(output[..<range.lowerBound]), map)
    }

    // MARK: - Cache

    private func esbuildStamp(_ esbuild: String) -> String {
        found.withLock { found in
            if let stamp = found.stamp { return stamp }
            let file = FileSystem.stamp(esbuild)
            let made = "\(esbuild):\(file?.size ?? 0):\(file?.modified ?? 0)"
            found.stamp = made
            return made
        }
    }

    /// Bump when the transform's output changes for the same input.
    private static let transformVersion = "9"

    private func cacheKey(path: String, source: String, format: ModuleFormat, asynchronous: Bool, esbuild: String) -> String {
        var hasher = SHA256()
        for part in [Self.transformVersion, esbuildStamp(esbuild), format.rawValue, asynchronous ? "async" : "", path] {
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [0])
        }
        hasher.update(data: Array(source.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hasher.finalize() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The first line of a cached file says how it was made; the code follows.
    private static func header(_ compiled: CompiledSource) -> String {
        "//hybrid-cache topLevelAwait=\(compiled.topLevelAwait ? 1 : 0)\n"
    }

    private func readCache(key: String, format: ModuleFormat) -> CompiledSource? {
        guard let folder = cacheDirectory,
              let text = try? FileSystem.textIfPresent(atPath: "\(folder)/\(key).js"),
              let newline = text.firstIndex(of: "\n"), text.hasPrefix("//hybrid-cache ") else { return nil }
        let topLevelAwait = text[..<newline].hasSuffix("topLevelAwait=1")
        var compiled = CompiledSource(code: String(text[text.index(after: newline)...]), sourceMap: nil, format: format, topLevelAwait: topLevelAwait)
        compiled.sourceMapFile = "\(folder)/\(key).js.map"
        return compiled
    }

    /// Best effort: a cache that cannot be written (read-only home, full disk) costs a transform
    /// per start, nothing more. The map is written first, so a code file never lacks its map.
    private func writeCache(key: String, _ compiled: CompiledSource) {
        guard let folder = cacheDirectory else { return }
        do {
            try FileSystem.createDirectories(folder)
            if let map = compiled.sourceMap { try FileSystem.write(map, to: "\(folder)/\(key).js.map") }
            try FileSystem.write(Self.header(compiled) + compiled.code, to: "\(folder)/\(key).js")
        } catch {
            return
        }
    }
}
