import ScriptSources
import SystemIO
import Testing

/// Real published packages (Debian's node-semver, node-lodash and node-uuid, which
/// scripts/install-deps installs), copied into an app's node_modules, and Node's own answers.
@Suite struct PublishedPackageTests {
    static let packages = ["semver", "lodash", "uuid"]
    static let installed = packages.allSatisfy { FileSystem.kind(of: "/usr/share/nodejs/" + $0) == .directory }

    static func app() throws -> AppFolder {
        let app = try AppFolder(["main.js": "", "main.mjs": ""])
        for name in packages { try NodeResolution.install(name, into: app.root) }
        return app
    }

    @Test("semver, lodash and uuid resolve to the files their package.json name under our conditions",
          .enabled(if: installed, "scripts/install-deps installs node-semver, node-lodash and node-uuid"))
    func published() throws {
        let app = try Self.app()
        defer { app.remove() }
        for kind in [ModuleRequestKind.require, .import] {
            #expect(try app.resolve("semver", kind: kind) == "node_modules/semver/index.js")
            #expect(try app.resolve("semver/functions/satisfies", kind: kind) == "node_modules/semver/functions/satisfies.js")
            #expect(try app.resolve("lodash", kind: kind) == "node_modules/lodash/lodash.js")
            // Both lodash/fp.js and the folder lodash/fp exist: the file comes first.
            #expect(try app.resolve("lodash/fp", kind: kind) == "node_modules/lodash/fp.js")
            // uuid 8's "." is {"node": {...}, "default": "./dist/esm-browser/index.js"}: without
            // "node", both kinds take its default, an ES module build in a package without
            // "type", which Node's rule calls CommonJS (the loader's syntax detection takes it as
            // an ES module when it will not compile as CommonJS).
            #expect(try app.resolve("uuid", kind: kind) == "node_modules/uuid/dist/esm-browser/index.js")
            #expect(try app.resolve("uuid/package.json", kind: kind) == "node_modules/uuid/package.json")
            #expect(app.error("uuid/dist/index.js", kind: kind)?.code == .packagePathNotExported)
        }
        #expect(try app.resolver.resolve("uuid", from: app.root + "/main.mjs", kind: .import).format == .commonJS)
        #expect(try app.resolver.resolve("semver", from: app.root + "/main.mjs", kind: .import).format == .commonJS)
    }

    @Test("node resolves semver and lodash as we do; uuid differs only by Node's \"node\" condition",
          .enabled(if: installed && NodeResolution.executable != nil, "needs node and the Debian npm packages"))
    func agreesWithNode() throws {
        let app = try Self.app()
        defer { app.remove() }
        let required = ["semver", "semver/functions/satisfies", "lodash", "lodash/fp", "uuid/package.json", "uuid/dist/index.js", "nope"]
        let node = try #require(try NodeResolution.resolve(required + ["uuid"], kind: .require, in: app.root))
        for (request, answer) in zip(required, node) {
            #expect(ours(request, kind: .require, in: app) == answer, "require(\(request))")
        }
        // Node matches "node" first: {"node": {"require": "./dist/index.js"}}; we take "default".
        #expect(node.last == app.root + "/node_modules/uuid/dist/index.js")

        // Node's import tries no extensions, so only requests naming a file are compared.
        let imported = ["semver", "semver/functions/satisfies.js", "lodash", "lodash/fp.js", "uuid/package.json", "uuid/dist/index.js"]
        guard let nodeImports = try NodeResolution.resolve(imported + ["uuid"], kind: .import, in: app.root) else { return }
        for (request, answer) in zip(imported, nodeImports) {
            #expect(ours(request, kind: .import, in: app) == answer, "import \(request)")
        }
        #expect(nodeImports.last == app.root + "/node_modules/uuid/wrapper.mjs")
    }

    @Test("node with --conditions=hybrid and --conditions=worker agrees on the exports table wherever it uses neither node, browser nor module",
          .enabled(if: NodeResolution.executable != nil, "needs node"))
    func exportsAgreeWithNode() throws {
        let cases = ModuleResolverPackageTests.exportsCases.enumerated().filter { _, test in
            let ours = ["\"node\"", "\"browser\"", "\"module\""].allSatisfy { !test.exports.contains($0) }
            // TypeScript's .js-for-.ts convention is ours alone.
            if case .file(let file) = test.expected, file.hasSuffix(".ts") { return false }
            return ours
        }
        var files = ["main.js": ""]
        for (index, test) in cases {
            files["node_modules/pkg\(index)/package.json"] = #"{"name": "pkg\#(index)", "exports": \#(test.exports)}"#
            for file in ModuleResolverPackageTests.packageFiles { files["node_modules/pkg\(index)/" + file] = "" }
        }
        let app = try AppFolder(files)
        defer { app.remove() }
        for kind in [ModuleRequestKind.require, .import] {
            let requests = cases.map { index, test in "pkg\(index)" + test.request.dropFirst(3) }
            guard let node = try NodeResolution.resolve(requests, kind: kind, in: app.root, conditions: ["hybrid", "worker"]) else { continue }
            for ((_, test), (request, answer)) in zip(cases, zip(requests, node)) where test.kind == kind {
                // Node's import does not look for the file an export names; a missing one is ours to report.
                if kind == .import, case .error(.moduleNotFound) = test.expected { continue }
                #expect(ours(request, kind: kind, in: app) == answer.replacing("ERR_MODULE_NOT_FOUND", with: "MODULE_NOT_FOUND"),
                        "\(kind) \(request) with exports \(test.exports)")
            }
        }
    }

    static let joseInstalled = FileSystem.kind(of: "/usr/share/nodejs/jose") == .directory

    @Test("Debian's node-jose resolves to its web-platform build, its \"worker\" key, for require and import; node does with --conditions=worker",
          .enabled(if: joseInstalled, "scripts/install-deps installs node-jose"))
    func joseWorkerBuild() throws {
        let app = try AppFolder(["main.js": ""])
        defer { app.remove() }
        try NodeResolution.install("jose", into: app.root)
        let browserBuild = app.root + "/node_modules/jose/dist/browser/index.js"
        for kind in [ModuleRequestKind.require, .import] {
            let resolved = try app.resolver.resolve("jose", from: app.root + "/main.js", kind: kind)
            #expect(resolved.path == browserBuild, "\(kind)")
            #expect(resolved.format == .module, "\(kind)")
        }
        guard NodeResolution.executable != nil else { return }
        // node passes over "bun", "deno", "browser" and "worker" to its kind's key, the Node build;
        // told to match "worker" as well, it stops there as we do.
        #expect(try NodeResolution.resolve(["jose"], kind: .require, in: app.root) == [app.root + "/node_modules/jose/dist/node/cjs/index.js"])
        #expect(try NodeResolution.resolve(["jose"], kind: .require, in: app.root, conditions: ["worker"]) == [browserBuild])
        if let imported = try NodeResolution.resolve(["jose"], kind: .import, in: app.root, conditions: ["worker"]) {
            #expect(imported == [browserBuild])
        }
    }

    /// Our answer in Node's form: an absolute path or `error:CODE`.
    func ours(_ request: String, kind: ModuleRequestKind, in app: AppFolder) -> String {
        do {
            return try app.resolver.resolve(request, from: app.root + "/main.js", kind: kind).path
        } catch {
            return "error:" + error.code.rawValue
        }
    }
}
