import ScriptSources
import Testing

/// Bare requests: the `node_modules` search, `"exports"` under our conditions, packages without
/// `"exports"`, self-reference, and Node's built-ins.
@Suite struct ModuleResolverPackageTests {
    enum Expected: Sendable {
        case file(String)
        case error(ModuleResolutionError.Code)
    }

    struct ExportsCase: CustomTestStringConvertible, Sendable {
        let exports: String
        let request: String
        var kind: ModuleRequestKind = .require
        /// The file under node_modules/pkg, or an error code.
        let expected: Expected
        var testDescription: String { "\(request) (\(kind)) with exports \(exports)" }
    }

    /// Every file a case may name exists in the package.
    static let packageFiles = ["main.js", "esm.mjs", "cjs.cjs", "d.js", "i.js", "h.js", "n.js", "b.js", "m.js", "ok.js", "hi.mjs", "hr.cjs",
                               "lib/sub.js", "lib/x.js", "feat/a.js", "dist/index.ts", "w.js"]

    static let exportsCases: [ExportsCase] = [
        ExportsCase(exports: #""./main.js""#, request: "pkg", expected: .file("main.js")),
        ExportsCase(exports: #""./main.js""#, request: "pkg/lib/sub.js", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{"import": "./esm.mjs", "require": "./cjs.cjs"}"#, request: "pkg", kind: .import, expected: .file("esm.mjs")),
        ExportsCase(exports: #"{"import": "./esm.mjs", "require": "./cjs.cjs"}"#, request: "pkg", expected: .file("cjs.cjs")),
        // Conditions are read in the object's order: "default" first wins over a later "import".
        ExportsCase(exports: #"{"default": "./d.js", "import": "./i.js"}"#, request: "pkg", kind: .import, expected: .file("d.js")),
        ExportsCase(exports: #"{"node": "./n.js", "browser": "./b.js", "default": "./d.js"}"#, request: "pkg", expected: .file("d.js")),
        ExportsCase(exports: #"{"node": "./n.js", "hybrid": "./h.js", "default": "./d.js"}"#, request: "pkg", kind: .import, expected: .file("h.js")),
        // "worker", the web-platform build (node-jose writes its keys in this order), for both kinds.
        ExportsCase(exports: #"{"browser": "./b.js", "worker": "./w.js", "import": "./esm.mjs", "require": "./cjs.cjs"}"#, request: "pkg",
                    kind: .import, expected: .file("w.js")),
        ExportsCase(exports: #"{"browser": "./b.js", "worker": "./w.js", "import": "./esm.mjs", "require": "./cjs.cjs"}"#, request: "pkg",
                    expected: .file("w.js")),
        ExportsCase(exports: #"{"require": "./cjs.cjs", "worker": "./w.js"}"#, request: "pkg", expected: .file("cjs.cjs")),
        ExportsCase(exports: #"{"hybrid": "./h.js", "worker": "./w.js"}"#, request: "pkg", kind: .import, expected: .file("h.js")),
        ExportsCase(exports: #"{"module": "./m.js", "default": "./d.js"}"#, request: "pkg", kind: .import, expected: .file("m.js")),
        ExportsCase(exports: #"{"module": "./m.js", "default": "./d.js"}"#, request: "pkg", expected: .file("d.js")),
        ExportsCase(exports: #"{".": "./main.js", "./sub": "./lib/sub.js"}"#, request: "pkg/sub", expected: .file("lib/sub.js")),
        ExportsCase(exports: #"{".": "./main.js", "./sub": "./lib/sub.js"}"#, request: "pkg/lib/sub.js", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{"./sub": "./lib/sub.js"}"#, request: "pkg", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{"./*": "./lib/*.js", "./features/*.js": "./feat/*.js", "./features/private/*": null}"#, request: "pkg/x",
                    expected: .file("lib/x.js")),
        ExportsCase(exports: #"{"./*": "./lib/*.js", "./features/*.js": "./feat/*.js", "./features/private/*": null}"#, request: "pkg/features/a.js",
                    expected: .file("feat/a.js")),
        ExportsCase(exports: #"{"./*": "./lib/*.js", "./features/*.js": "./feat/*.js", "./features/private/*": null}"#,
                    request: "pkg/features/private/a.js", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{".": "./main.js", "./internal": null}"#, request: "pkg/internal", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{".": ["not-relative", "./ok.js"]}"#, request: "pkg", expected: .file("ok.js")),
        ExportsCase(exports: #"{".": [{"node": "./n.js"}, "./ok.js"]}"#, request: "pkg", expected: .file("ok.js")),
        ExportsCase(exports: #"{".": []}"#, request: "pkg", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{".": {"hybrid": {"import": "./hi.mjs", "require": "./hr.cjs"}, "default": "./d.js"}}"#, request: "pkg", kind: .import,
                    expected: .file("hi.mjs")),
        ExportsCase(exports: #"{".": {"hybrid": {"import": "./hi.mjs", "require": "./hr.cjs"}, "default": "./d.js"}}"#, request: "pkg",
                    expected: .file("hr.cjs")),
        ExportsCase(exports: #"{".": {"node": {"import": "./esm.mjs"}, "default": "./d.js"}}"#, request: "pkg", kind: .import, expected: .file("d.js")),
        ExportsCase(exports: #"{".": {"node": "./n.js", "browser": "./b.js"}}"#, request: "pkg", expected: .error(.packagePathNotExported)),
        ExportsCase(exports: #"{".": "../outside.js"}"#, request: "pkg", expected: .error(.invalidPackageTarget)),
        ExportsCase(exports: #"{".": "./node_modules/x.js"}"#, request: "pkg", expected: .error(.invalidPackageTarget)),
        ExportsCase(exports: #"{".": "main.js"}"#, request: "pkg", expected: .error(.invalidPackageTarget)),
        ExportsCase(exports: #"{"./*": "./lib/*.js"}"#, request: "pkg/../x", expected: .error(.invalidModuleSpecifier)),
        ExportsCase(exports: #"{".": "./main.js", "import": "./esm.mjs"}"#, request: "pkg", expected: .error(.invalidPackageConfig)),
        ExportsCase(exports: #"{".": "./missing.js"}"#, request: "pkg", expected: .error(.moduleNotFound)),
        ExportsCase(exports: #"{".": "./dist/index.js"}"#, request: "pkg", expected: .file("dist/index.ts")),
        ExportsCase(exports: "null", request: "pkg", expected: .error(.moduleNotFound)),
    ]

    @Test("require searches NODE_PATH's folders after every node_modules, as Node does; import does not; the error names them")
    func globalFolders() throws {
        let app = try AppFolder([
            "src/main.js": "",
            "global/one/package.json": #"{"main": "lib.js"}"#, "global/one/lib.js": "",
            "global/two/index.js": "",
            "node_modules/two/index.js": "",
        ], globalFolders: ["global"])
        defer { app.remove() }
        #expect(try app.resolve("one", from: "src/main.js") == "global/one/lib.js")
        #expect(try app.resolve("one/lib", from: "src/main.js") == "global/one/lib.js")
        // A node_modules on the way up comes first.
        #expect(try app.resolve("two", from: "src/main.js") == "node_modules/two/index.js")
        let imported = try #require(app.error("one", from: "src/main.js", kind: .import))
        #expect(imported.code == .moduleNotFound)
        #expect(!imported.message.contains("global"), "\(imported.message)")
        let missing = try #require(app.error("three", from: "src/main.js"))
        #expect(missing.message.hasSuffix(", and for three in \(app.root)/global)"), "\(missing.message)")
    }

    @Test("require of a bare name takes node_modules/name.js before the folder, in each node_modules and NODE_PATH folder, as Node's LOAD_AS_FILE")
    func bareNameAsFile() throws {
        let app = try AppFolder([
            "package.json": #"{"type": "module"}"#, "src/main.js": "",
            "node_modules/single.js": "", "node_modules/@scope/one.json": "{}",
            "node_modules/both.js": "", "node_modules/both/index.js": "",
            // A package with "exports" answers for itself: the file beside it is not looked at.
            "node_modules/exported.js": "", "node_modules/exported/package.json": #"{"exports": "./main.js"}"#, "node_modules/exported/main.js": "",
            "src/node_modules/near/index.js": "", "node_modules/near.js": "",
            "global/tool.cjs": "",
        ], globalFolders: ["global"])
        defer { app.remove() }
        #expect(try app.resolve("single", from: "src/main.js") == "node_modules/single.js")
        #expect(try app.resolve("@scope/one", from: "src/main.js") == "node_modules/@scope/one.json")
        #expect(try app.resolve("both", from: "src/main.js") == "node_modules/both.js")
        #expect(try app.resolve("exported", from: "src/main.js") == "node_modules/exported/main.js")
        // The nearer node_modules comes first, whether it holds a folder or a file.
        #expect(try app.resolve("near", from: "src/main.js") == "src/node_modules/near/index.js")
        #expect(try app.resolve("tool", from: "src/main.js") == "global/tool.cjs")
        // Node's ES module resolution looks for a package folder only.
        #expect(app.error("single", from: "src/main.js", kind: .import)?.code == .moduleNotFound)
        #expect(try app.resolve("both", from: "src/main.js", kind: .import) == "node_modules/both/index.js")
        // In no package: the app's "type" is not the file's.
        #expect(try app.resolver.resolve("single", from: app.root + "/src/main.js", kind: .require).format == .commonJS)
        #expect(try app.resolver.format(of: app.root + "/src/main.js") == .module)

        // NODE_PATH's files are held against node in ModuleConformanceTests, where node runs with one.
        if NodeResolution.executable != nil {
            let requests = ["single", "@scope/one", "both", "exported", "near"]
            let ours = try requests.map { try app.resolver.resolve($0, from: app.root + "/src/main.js", kind: .require).path }
            #expect(try NodeResolution.resolve(requests, kind: .require, in: app.root + "/src") == ours)
            #expect(try NodeResolution.resolve(["single"], kind: .import, in: app.root + "/src") ?? ["error:ERR_MODULE_NOT_FOUND"] == ["error:ERR_MODULE_NOT_FOUND"])
        }
    }

    @Test("a native addon (x.node), tried after the other extensions as Node tries it, is refused by name")
    func nativeAddon() throws {
        let app = try AppFolder(["main.js": "", "build/addon.node": "", "node_modules/native.node": "", "node_modules/bound/index.node": ""])
        defer { app.remove() }
        for request in ["./build/addon", "./build/addon.node", "native", "bound"] {
            let error = try #require(app.error(request), "\(request)")
            #expect(error.code == .nativeAddon, "\(request)")
            #expect(error.message.hasPrefix("'\(request)' is the native addon \(app.root)/"), "\(error.message)")
            #expect(error.message.hasSuffix("HybridHost cannot load (it runs JavaScript, TypeScript and JSON), required from \(app.root)/main.js"))
        }
    }

    @Test("the global folders are NODE_PATH's, in order, then HOME's .node_modules and .node_libraries")
    func globalFoldersFromTheEnvironment() {
        let environment = ["NODE_PATH": "/opt/a::/opt/b", "HOME": "/home/u"]
        #expect(ModuleResolver.globalFolders(environment: { environment[$0] })
            == ["/opt/a", "/opt/b", "/home/u/.node_modules", "/home/u/.node_libraries"])
        #expect(ModuleResolver.globalFolders(environment: { _ in nil }) == [])
    }

    @Test("a package's exports decide what it exports, matched against hybrid, worker, require or import, module (import only) and default",
          arguments: exportsCases)
    func exports(_ test: ExportsCase) throws {
        var files = ["main.js": "", "node_modules/pkg/package.json": #"{"name": "pkg", "exports": \#(test.exports)}"#]
        for file in Self.packageFiles { files["node_modules/pkg/" + file] = "" }
        let app = try AppFolder(files)
        defer { app.remove() }
        switch test.expected {
        case .file(let file):
            #expect(try app.resolve(test.request, kind: test.kind) == "node_modules/pkg/" + file)
        case .error(let code):
            #expect(app.error(test.request, kind: test.kind)?.code == code)
        }
    }

    @Test("a subpath not exported is ERR_PACKAGE_PATH_NOT_EXPORTED naming the package.json, the subpath and the conditions it offers")
    func notExported() throws {
        let app = try AppFolder(["main.js": "", "node_modules/pkg/package.json": #"{"exports": {".": {"node": "./n.js"}, "./a": "./a.js"}}"#])
        defer { app.remove() }
        let manifest = "\(app.root)/node_modules/pkg/package.json"
        #expect(app.error("pkg/b")?.message == "Package subpath './b' is not defined by \"exports\" in \(manifest), required from \(app.root)/main.js")
        #expect(app.error("pkg", kind: .import)?.message == "Package subpath '.' is not defined by \"exports\" in \(manifest) for the conditions hybrid, "
                + "worker, import, module, default (it offers node; HybridHost matches neither \"node\" nor \"browser\"), imported from \(app.root)/main.js")
    }

    @Test("a package is looked for in node_modules of the importing file's folder and every folder above, never in node_modules/node_modules")
    func nodeModulesSearch() throws {
        let app = try AppFolder([
            "node_modules/a/index.js": "", "src/deep/main.js": "",
            "node_modules/b/index.js": "", "node_modules/b/node_modules/a/index.js": "", "node_modules/b/lib/use.js": "",
            "node_modules/@scope/pkg/index.js": "", "node_modules/@scope/pkg/sub.ts": "",
            "node_modules/plain/package.json": #"{"main": "lib/plain.js", "module": "es/plain.js"}"#,
            "node_modules/plain/lib/plain.js": "", "node_modules/plain/es/plain.js": "", "node_modules/plain/lib/extra.cjs": "",
            // The nearer copy lacks the file; require goes on up to the copy that has it.
            "src/node_modules/c/package.json": "{}", "node_modules/c/only-here.js": "",
        ])
        defer { app.remove() }
        #expect(try app.resolve("a", from: "src/deep/main.js") == "node_modules/a/index.js")
        #expect(try app.resolve("a", from: "node_modules/b/lib/use.js") == "node_modules/b/node_modules/a/index.js")
        #expect(try app.resolve("@scope/pkg") == "node_modules/@scope/pkg/index.js")
        #expect(try app.resolve("@scope/pkg/sub.js", kind: .import) == "node_modules/@scope/pkg/sub.ts")
        #expect(try app.resolve("plain") == "node_modules/plain/lib/plain.js")
        #expect(try app.resolve("plain", kind: .import) == "node_modules/plain/es/plain.js")
        #expect(try app.resolve("plain/lib/extra") == "node_modules/plain/lib/extra.cjs")
        #expect(try app.resolve("c/only-here", from: "src/deep/main.js") == "node_modules/c/only-here.js")
    }

    @Test("a package not found is MODULE_NOT_FOUND listing the folders searched")
    func packageNotFound() throws {
        let app = try AppFolder(["src/main.ts": "", "node_modules/lodash/lodash.js": ""])
        defer { app.remove() }
        var above: [String] = []
        var folder = app.root
        while folder != "/" {
            above.append(folder)
            folder = String(folder[..<folder.lastIndex(of: "/")!])
            if folder.isEmpty { folder = "/" }
        }
        let searched = (["\(app.root)/src"] + above + ["/"]).joined(separator: ", ")
        let error = try #require(app.error("semverx", from: "src/main.ts", kind: .import))
        #expect(error.code == .moduleNotFound)
        #expect(error.message == "Cannot find package 'semverx' imported from \(app.root)/src/main.ts (looked for node_modules/semverx in \(searched))")
        let subpath = try #require(app.error("lodash/nope", from: "src/main.ts"))
        #expect(subpath.message.contains("found \(app.root)/node_modules/lodash but tried \(app.root)/node_modules/lodash/nope, "))
    }

    @Test("a package reaches its own exports by its name (self-reference), as in Node")
    func selfReference() throws {
        let app = try AppFolder(["package.json": #"{"name": "my-app", "exports": {"./util": "./src/util.ts"}}"#, "src/util.ts": "", "src/main.ts": "",
                                 "lib/package.json": #"{"name": "no-exports"}"#, "lib/main.js": "", "lib/index.js": ""])
        defer { app.remove() }
        #expect(try app.resolve("my-app/util", from: "src/main.ts", kind: .import) == "src/util.ts")
        #expect(app.error("my-app/src/util.ts", from: "src/main.ts")?.code == .packagePathNotExported)
        #expect(app.error("no-exports", from: "lib/main.js")?.code == .moduleNotFound)
    }

    @Test("a #name request is the importing package's imports, whose targets are files in it or other packages, as in Node")
    func packageImports() throws {
        let app = try AppFolder([
            "package.json": #"""
                {"name": "app", "imports": {"#config": {"hybrid": "./config.hybrid.js", "node": "./config.node.js", "default": "./config.js"},
                 "#lib/*": "./src/lib/*.ts", "#semver": "semver", "#hidden": null, "#bad": "../x.js", "#loop": "#loop"}}
                """#,
            "main.js": "", "config.hybrid.js": "", "config.node.js": "", "config.js": "", "src/lib/a.ts": "", "src/main.ts": "",
            "node_modules/semver/index.js": "", "other/package.json": "{}", "other/main.js": "",
        ])
        defer { app.remove() }
        let expected: [(String, Expected)] = [
            ("#config", .file("config.hybrid.js")), ("#lib/a", .file("src/lib/a.ts")), ("#semver", .file("node_modules/semver/index.js")),
            ("#hidden", .error(.packageImportNotDefined)), ("#missing", .error(.packageImportNotDefined)), ("#bad", .error(.invalidPackageTarget)),
        ]
        var answers: [String] = []
        for (request, outcome) in expected {
            switch outcome {
            case .file(let file):
                #expect(try app.resolve(request, from: "src/main.ts", kind: .import) == file)
                answers.append(app.root + "/" + file)
            case .error(let code):
                #expect(app.error(request, from: "src/main.ts", kind: .import)?.code == code)
                answers.append("error:" + code.rawValue)
            }
        }
        // Node's require looks for a package named '#loop' and reports MODULE_NOT_FOUND.
        #expect(app.error("#loop", from: "src/main.ts")?.code == .invalidPackageTarget)
        #expect(app.error("#config", from: "other/main.js")?.code == .packageImportNotDefined)
        #expect(app.error("#")?.code == .invalidModuleSpecifier)
        if NodeResolution.executable != nil {
            #expect(try NodeResolution.resolve(expected.map(\.0), kind: .require, in: app.root, conditions: ["hybrid"]) == answers)
        }
    }

    @Test("Node's built-ins are ERR_UNKNOWN_BUILTIN_MODULE, with or without node:", arguments: ["fs", "node:fs", "path/posix", "node:test", "events"])
    func builtins(request: String) throws {
        let app = try AppFolder(["main.js": ""])
        defer { app.remove() }
        let error = try #require(app.error(request))
        #expect(error.code == .unknownBuiltinModule)
        let name = request.hasPrefix("node:") ? request : "node:" + request
        #expect(error.message.hasPrefix("\(name) is a Node built-in module; HybridHost has none (its services are on Hybrid.*)"))
        #expect(error.message.hasSuffix("required from \(app.root)/main.js"))
    }

    @Test("an installed package named as a Node built-in (a polyfill) is that package, as browser bundlers take it")
    func polyfill() throws {
        let app = try AppFolder(["main.js": "", "node_modules/events/package.json": #"{"main": "./events.js"}"#, "node_modules/events/events.js": ""])
        defer { app.remove() }
        #expect(try app.resolve("events") == "node_modules/events/events.js")
        #expect(app.error("node:events")?.code == .unknownBuiltinModule)
    }
}
