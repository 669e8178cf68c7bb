// The ScriptSources module: how an app's source files become the JavaScript that runs: which file
// a `require` or `import` names, and how that file is evaluated. It reads files and never runs
// them: no JavaScriptCore, no engine, no bridge.
import JSON
import SystemIO

/// Node's module resolution for an app's `require(x)`, `import x` and `import(x)`: the file a
/// request names, as a real path, and its ``ModuleFormat``.
///
/// ```swift
/// let resolver = ModuleResolver()
/// let semver = try resolver.resolve("semver/functions/satisfies", from: "/app/main.ts", kind: .import)
/// // semver.path == "/app/node_modules/semver/functions/satisfies.js", semver.format == .commonJS
/// ```
///
/// **Paths** (`./x`, `../x`, `/x`, and `file://` URLs for `import`, as in Node): the exact file,
/// then the name with each of `.js .ts .mjs .mts .cjs .cts .json` in that order; then a folder:
/// its `package.json` `"main"` (`require`) or `"module"` then `"main"` (`import`, as bundlers
/// do), each as a file or a folder with an index, then `index` with those extensions. A request
/// ending in `/`, `.` or `..` names a folder only. TypeScript's convention: a name ending in
/// `.js`, `.mjs` or `.cjs` that does not exist is the `.ts`, `.mts` or `.cts` beside it. An
/// `import` (static or `import()`) from a JavaScript file takes Node's rule instead: the file as
/// named (or its TypeScript source) and nothing else, so that an app of ES modules that runs here
/// runs under Node; a name without its extension is `ERR_MODULE_NOT_FOUND` and a folder
/// `ERR_UNSUPPORTED_DIR_IMPORT`, each with Node's hint (`Did you mean to import "./greeting.js"?`).
/// An `import` from TypeScript, and every `require`, tries the extensions and the folder's entry,
/// as TypeScript's own resolution and bundlers do.
///
/// **Packages** (`semver`, `@scope/pkg`, `lodash/fp`, `pkg/sub/path.js`): first the package the
/// importing file is in, when the request starts with its own name and it has `"exports"`
/// (self-reference); then `node_modules/<name>` in the importing file's folder and in every
/// folder above it to the root (never in a folder itself named `node_modules`). A package with
/// `"exports"` is resolved by it alone, and its answer is final: a subpath it does not export is
/// `ERR_PACKAGE_PATH_NOT_EXPORTED`. `"exports"` may be a target string, an array of fallbacks (the
/// first valid one), a conditions object, or a map from subpaths (`"."`, `"./sub"`, patterns with
/// one `*` such as `"./features/*.js"`, the longest part before the `*` winning) to any of those,
/// nested at will; `null` excludes. A conditions object is read in its own key order and its first
/// key among `"hybrid"`, `"worker"` (the web-platform build, as workerd and bundlers for workers
/// take it), `"require"` or `"import"` (by kind), `"module"` (`import` only, as bundlers do) and
/// `"default"` wins; `"node"` and `"browser"` never match, since HybridHost has neither Node's
/// built-in modules nor a DOM. Targets must start with `./` and stay in the package; the file must
/// exist as named (or as its TypeScript source). A package without `"exports"`: a subpath as a
/// path in the package folder; the package itself, for `require`, first as a file beside the
/// folder (`node_modules/foo.js` for `foo`: Node's LOAD_AS_FILE, with the extensions above), then
/// as a folder (entry fields, then index); for `import`, as a folder only, as Node's ES module
/// resolution has it. A package found without the file goes on to the next `node_modules` up, as
/// `require` does. After them, for `require` only (Node's ES module resolution ignores them
/// too), the global folders: each folder of `NODE_PATH` (colon-separated), then
/// `$HOME/.node_modules` and `$HOME/.node_libraries`, each holding packages (and files) as a
/// `node_modules` folder does.
///
/// **Package imports** (`#config`, `#internal/*`): the `"imports"` of the importing file's package,
/// read as `"exports"` is (conditions, patterns, `null`), whose targets may also name a package
/// (`"#styles": "ansi-styles"`), resolved from the package's folder.
///
/// **Node built-ins**: `node:fs` is `ERR_UNKNOWN_BUILTIN_MODULE`, and so is a bare `fs`, `path`,
/// ... unless the app installed a package of that name (the `events` or `buffer` polyfills), as
/// browser bundlers do: HybridHost has no built-ins (its services are on `Hybrid.*`). A native
/// addon (`x.node`, tried after the other extensions as Node tries it) is `ERR_DLOPEN_FAILED`.
///
/// **Files** are returned as real paths (symbolic links followed, as Node does by default), so one
/// file reached through two links is one module. `package.json` files are read once per resolver
/// (a resolver serves one run); a malformed one is `ERR_INVALID_PACKAGE_CONFIG` naming the file
/// and the JSON error. Not thread-safe: use one from one thread.
public final class ModuleResolver {
    /// The extensions tried after the exact name, in this order.
    public static let extensions = [".js", ".ts", ".mjs", ".mts", ".cjs", ".cts", ".json"]
    /// Node's compiled addons, tried after the extensions as Node tries them, to be refused by
    /// name rather than reported missing.
    private static let nativeAddonExtension = ".node"
    /// The extensions as one glob, for messages: `.{js,ts,mjs,mts,cjs,cts,json}`.
    private static let extensionGlob = ".{" + extensions.map { String($0.dropFirst()) }.joined(separator: ",") + "}"
    /// A compiled name's TypeScript source: `x.js` may be written as `x.ts`.
    private static let typeScriptSources = [(".js", ".ts"), (".mjs", ".mts"), (".cjs", ".cts")]

    /// Each folder's `package.json` as read: absent (nil), parsed, or the error it gave.
    private var manifests: [String: Result<PackageManifest?, ModuleResolutionError>] = [:]
    /// Folders of packages searched after every `node_modules`, for `require`.
    public let globalFolders: [String]

    public init(globalFolders: [String] = ModuleResolver.globalFolders()) {
        self.globalFolders = globalFolders
    }

    /// Node's global folders from this process's environment: `NODE_PATH`'s folders (empty parts
    /// skipped, relative ones taken from the working directory), then `$HOME/.node_modules` and
    /// `$HOME/.node_libraries`.
    public static func globalFolders(environment: (String) -> String? = { ProcessEnvironment[$0] }) -> [String] {
        var folders = (environment("NODE_PATH") ?? "").split(separator: ":").map { FileSystem.absolute(String($0)) }
        if let home = environment("HOME"), !home.isEmpty {
            folders += [home + "/.node_modules", home + "/.node_libraries"]
        }
        return folders
    }

    /// The file `request` names for `parentFile` (the importing file; its folder is where relative
    /// requests start and where the `node_modules` search begins).
    public func resolve(_ request: String, from parentFile: String, kind: ModuleRequestKind) throws(ModuleResolutionError) -> ResolvedModule {
        let parentFolder = FileSystem.directory(of: FileSystem.absolute(parentFile))
        let folder = FileSystem.realPath(parentFolder) ?? parentFolder
        let exact = kind == .import && !parentFile.isEmpty && SourceLanguage(filename: parentFile) == .javaScript
        let found = try file(for: request, in: folder, kind: kind, exact: exact, importer: "\(kind.verb) from \(parentFile)")
        let real = FileSystem.realPath(found) ?? found
        if real.hasSuffix(Self.nativeAddonExtension) {
            throw ModuleResolutionError(.nativeAddon, "'\(request)' is the native addon \(real), compiled code for Node that HybridHost cannot load "
                                        + "(it runs JavaScript, TypeScript and JSON), \(kind.verb) from \(parentFile)")
        }
        return ResolvedModule(path: real, format: try format(of: real))
    }

    /// How the file at `path` is evaluated: `.mjs`/`.mts` as an ES module, `.cjs`/`.cts` as
    /// CommonJS, `.json` as data; any other (`.js`, `.ts`) by the `"type"` of the first
    /// `package.json` found from its folder up to the root: `"module"` an ES module, `"commonjs"`
    /// CommonJS; with no `"type"` (or no package.json), a `.ts` is an ES module, as TypeScript is
    /// written, and anything else CommonJS. (The loader also takes a `.js` that will not compile as
    /// CommonJS and has `import`/`export` as an ES module, as Node's syntax detection does.) Unlike
    /// Node, the walk does not stop at a `node_modules` folder: every published package has its
    /// own `package.json`, which it finds first. A file right in `node_modules` is in no package.
    public func format(of path: String) throws(ModuleResolutionError) -> ModuleFormat {
        if let format = ModuleFormat(extensionOf: path) { return format }
        // A file right in node_modules (`node_modules/foo.js`, `require("foo")`'s file) is in no
        // package, as Node has it: the app's "type" is not its.
        let folder = FileSystem.directory(of: path)
        switch try (folder.hasSuffix("/node_modules") ? nil : packageScope(of: folder))?.type {
        case "module": return .module
        case "commonjs": return .commonJS
        default: return SourceLanguage(filename: path) == .typeScript ? .module : .commonJS
        }
    }

    /// The file `request` names from `folder`; `importer` ("required from /app/main.js") is for
    /// messages. `exact`: a path must name the file itself (Node's `import` from JavaScript).
    private func file(for request: String, in folder: String, kind: ModuleRequestKind, exact: Bool = false,
                      importer: String) throws(ModuleResolutionError) -> String {
        switch try ModuleSpecifier(request, folder: folder, kind: kind, importer: importer) {
        case .path(let path, let folderOnly) where exact:
            return try exactFile(request, path: path, folderOnly: folderOnly, kind: kind, folder: folder, importer: importer)
        case .path(let path, let folderOnly):
            var tried: [String] = []
            if !folderOnly, let file = file(at: path, tried: &tried) { return file }
            if let entry = try folderEntry(path, kind: kind, tried: &tried) { return entry }
            throw ModuleResolutionError(.moduleNotFound, "Cannot find module '\(request)' \(importer) (tried \(tried.joined(separator: ", ")))")
        case .builtin:
            throw Self.builtin(request, importer: importer)
        case .package(let name, let subpath):
            return try packageFile(request, name: name, subpath: subpath, folder: folder, kind: kind, importer: importer)
        case .packageImport(let name):
            guard let scope = try packageScope(of: folder), let imports = scope.imports else {
                throw ModuleResolutionError(.packageImportNotDefined, "Package import specifier '\(name)' \(importer) has no \"imports\" to look in "
                                            + "(the nearest package.json above \(folder) has none)")
            }
            return try mappedFile(request, key: name, of: scope, field: .imports, map: imports, kind: kind, importer: importer)
        }
    }

    // MARK: - Paths

    /// The file `base` names: itself; for a `.js`/`.mjs`/`.cjs` name, its TypeScript source beside
    /// it; then `base` with each extension.
    private func file(at base: String, tried: inout [String]) -> String? {
        var candidates = [base]
        tried.append(base)
        if let source = Self.typeScriptSource(of: base) {
            candidates.append(source)
            tried.append(source)
        }
        candidates += Self.extensions.map { base + $0 } + [base + Self.nativeAddonExtension]
        tried.append(base + Self.extensionGlob)
        return candidates.first { FileSystem.kind(of: $0) == .file }
    }

    /// A folder's entry file: each of its `package.json` entry fields for `kind`, as a file or a
    /// folder's index, then the folder's own index.
    private func folderEntry(_ folder: String, kind: ModuleRequestKind, tried: inout [String]) throws(ModuleResolutionError) -> String? {
        guard FileSystem.kind(of: folder) == .directory else { return nil }
        if let manifest = try manifest(in: folder) {
            for field in kind.entryFields {
                guard let entry = manifest.entries[field] else { continue }
                let base = FileSystem.absolute(folder + "/" + entry)
                if let found = file(at: base, tried: &tried) ?? index(in: base, tried: &tried) { return found }
            }
        }
        return index(in: folder, tried: &tried)
    }

    private func index(in folder: String, tried: inout [String]) -> String? {
        guard FileSystem.kind(of: folder) == .directory else { return nil }
        let base = (folder == "/" ? "" : folder) + "/index"
        tried.append(base + Self.extensionGlob)
        return (Self.extensions + [Self.nativeAddonExtension]).lazy.map { base + $0 }.first { FileSystem.kind(of: $0) == .file }
    }

    /// Node's rule for an `import` of a path from JavaScript: the file as named, or its
    /// TypeScript source (TypeScript's convention, which Node's type stripping does not know);
    /// no extension is added and a folder is refused. When the other rule would have found a file,
    /// the error says which, in Node's words.
    private func exactFile(_ request: String, path: String, folderOnly: Bool, kind: ModuleRequestKind, folder: String,
                           importer: String) throws(ModuleResolutionError) -> String {
        if !folderOnly {
            let candidates = [path] + (Self.typeScriptSource(of: path).map { [$0] } ?? [])
            if let file = candidates.first(where: { FileSystem.kind(of: $0) == .file }) { return file }
        }
        var tried: [String] = []
        let meant = (folderOnly ? nil : file(at: path, tried: &tried)) ?? (try? folderEntry(path, kind: kind, tried: &tried)) ?? nil
        let hint = meant.map { "\nDid you mean to import \"\(Self.relative($0, from: folder))\"?" } ?? ""
        if FileSystem.kind(of: path) == .directory {
            throw ModuleResolutionError(.unsupportedDirectoryImport, "Directory import '\(path)' is not supported resolving ES modules \(importer)\(hint)")
        }
        throw ModuleResolutionError(.moduleNotFound, "Cannot find module '\(path)' \(importer)\(hint)")
    }

    /// `path` as a relative request from `folder`, as Node writes it in a hint: `./x.js`, `../lib/x.js`.
    static func relative(_ path: String, from folder: String) -> String {
        let target = path.split(separator: "/", omittingEmptySubsequences: true)
        let base = folder.split(separator: "/", omittingEmptySubsequences: true)
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] { shared += 1 }
        let ups = Array(repeating: "..", count: base.count - shared)
        let rest = target[shared...].map(String.init)
        return (ups.isEmpty ? ["."] : ups).joined(separator: "/") + "/" + rest.joined(separator: "/")
    }

    private static func typeScriptSource(of path: String) -> String? {
        typeScriptSources.first { path.hasSuffix($0.0) }.map { String(path.dropLast($0.0.count)) + $0.1 }
    }

    // MARK: - Packages

    private func packageFile(_ request: String, name: String, subpath: String, folder: String, kind: ModuleRequestKind,
                             importer: String) throws(ModuleResolutionError) -> String {
        if let scope = try packageScope(of: folder), scope.name == name, let exports = scope.exports {
            return try mappedFile(request, key: subpath, of: scope, field: .exports, map: exports, kind: kind, importer: importer)
        }
        var packages: [String] = []
        var tried: [String] = []
        let searched = Self.ancestors(of: folder).filter { !$0.hasSuffix("/node_modules") }
        let globals = kind == .require ? globalFolders : []
        for holder in searched.map({ ($0 == "/" ? "" : $0) + "/node_modules" }) + globals {
            let packageFolder = holder + "/" + name
            let isFolder = FileSystem.kind(of: packageFolder) == .directory
            if isFolder, let manifest = try manifest(in: packageFolder), let exports = manifest.exports {
                return try mappedFile(request, key: subpath, of: manifest, field: .exports, map: exports, kind: kind, importer: importer)
            }
            // Node's LOAD_AS_FILE before LOAD_AS_DIRECTORY: `require("foo")` is node_modules/foo.js
            // when there is one. (Node's ES module resolution looks for a package folder only.)
            var probed: [String] = []
            if subpath == ".", kind == .require, let found = file(at: packageFolder, tried: &probed) { return found }
            guard isFolder else { continue }
            packages.append(packageFolder)
            tried += probed
            let base = FileSystem.absolute(packageFolder + "/" + subpath)
            if subpath != ".", !subpath.hasSuffix("/"), let found = file(at: base, tried: &tried) { return found }
            if let found = try folderEntry(base, kind: kind, tried: &tried) { return found }
        }
        if NodeBuiltinModules.names.contains(request) { throw Self.builtin(request, importer: importer) }
        let looked = "looked for node_modules/\(name) in \(searched.joined(separator: ", "))"
            + (globals.isEmpty ? "" : ", and for \(name) in \(globals.joined(separator: ", "))")
        guard !packages.isEmpty else {
            throw ModuleResolutionError(.moduleNotFound, "Cannot find package '\(name)' \(importer) (\(looked))")
        }
        throw ModuleResolutionError(.moduleNotFound, "Cannot find module '\(request)' \(importer) (\(looked); found \(packages.joined(separator: ", ")) "
                                    + "but tried \(tried.joined(separator: ", ")))")
    }

    /// The file a package's `"exports"` or `"imports"` maps `key` to: a file in the package, which
    /// must exist as named or as its TypeScript source, or (imports only) another package's.
    private func mappedFile(_ request: String, key: String, of manifest: PackageManifest, field: PackageTargetMap.Field, map: JSONValue,
                            kind: ModuleRequestKind, importer: String) throws(ModuleResolutionError) -> String {
        let target = try PackageTargetMap(manifest: manifest, field: field, map: map, conditions: kind.conditions, importer: importer).target(of: key)
        switch target {
        case .package(let package):
            return try file(for: package, in: manifest.folder, kind: kind, importer: importer)
        case .file(let path):
            let candidates = [path] + (Self.typeScriptSource(of: path).map { [$0] } ?? [])
            guard let file = candidates.first(where: { FileSystem.kind(of: $0) == .file }) else {
                throw ModuleResolutionError(.moduleNotFound, "Cannot find module '\(path)', which \"\(field.rawValue)\" in \(manifest.path) maps "
                                            + "'\(request)' to, \(importer)")
            }
            return file
        }
    }

    /// The package a folder is in: the first `package.json` from it up to the root.
    private func packageScope(of folder: String) throws(ModuleResolutionError) -> PackageManifest? {
        for directory in Self.ancestors(of: folder) {
            if let manifest = try manifest(in: directory) { return manifest }
        }
        return nil
    }

    /// The folder of the package `folder` is in (its first `package.json` up to the root); nil
    /// when there is none or it cannot be read.
    func packageFolder(containing folder: String) -> String? {
        (try? packageScope(of: folder))??.folder
    }

    private func manifest(in folder: String) throws(ModuleResolutionError) -> PackageManifest? {
        if let read = manifests[folder] { return try read.get() }
        let read: Result<PackageManifest?, ModuleResolutionError>
        do {
            read = .success(try PackageManifest(folder: folder))
        } catch {
            read = .failure(error)
        }
        manifests[folder] = read
        return try read.get()
    }

    /// `folder` and every folder above it, to the root.
    private static func ancestors(of folder: String) -> [String] {
        var folders = [folder]
        var current = folder
        while current != "/" && current != "." {
            current = FileSystem.directory(of: current)
            folders.append(current)
        }
        return folders
    }

    private static func builtin(_ request: String, importer: String) -> ModuleResolutionError {
        let prefixed = request.hasPrefix("node:")
        let installed = prefixed ? "" : " and no package '\(request)' is installed"
        return ModuleResolutionError(.unknownBuiltinModule, "\(prefixed ? request : "node:" + request) is a Node built-in module; HybridHost has none "
                                     + "(its services are on Hybrid.*)\(installed), \(importer)")
    }
}
