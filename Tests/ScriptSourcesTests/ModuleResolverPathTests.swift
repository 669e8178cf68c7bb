import Glibc
import ScriptSources
import SystemIO
import Testing

/// Relative and absolute requests: the exact file, the extensions in order, TypeScript's
/// `.js`-for-`.ts` convention, folders through `package.json` entry fields and `index`.
@Suite struct ModuleResolverPathTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let files: [String]
        let request: String
        var from = "main.js"
        var kind: ModuleRequestKind = .require
        let expected: String
        var testDescription: String { "\(request) (\(kind)) among \(files.joined(separator: " ")) -> \(expected)" }
    }

    static let cases: [Case] = [
        Case(files: ["a", "a.js"], request: "./a", expected: "a"),
        Case(files: ["b.ts", "b.mjs", "b.json"], request: "./b", expected: "b.ts"),
        Case(files: ["b.js", "b.ts"], request: "./b", expected: "b.js"),
        Case(files: ["c.mjs", "c.mts", "c.cjs"], request: "./c", expected: "c.mjs"),
        Case(files: ["d.cts", "d.json"], request: "./d", expected: "d.cts"),
        Case(files: ["e.json"], request: "./e", from: "main.ts", kind: .import, expected: "e.json"),
        Case(files: ["g.ts"], request: "./g.js", expected: "g.ts"),
        Case(files: ["h.mts"], request: "./h.mjs", kind: .import, expected: "h.mts"),
        Case(files: ["i.cts"], request: "./i.cjs", expected: "i.cts"),
        Case(files: ["j.js", "j.ts"], request: "./j.js", expected: "j.js"),
        Case(files: ["dir/index.ts", "dir/index.json"], request: "./dir", expected: "dir/index.ts"),
        Case(files: ["x.js", "x/index.js"], request: "./x", expected: "x.js"),
        Case(files: ["x.js", "x/index.js"], request: "./x/", expected: "x/index.js"),
        Case(files: ["cart.js", "sub/main.js"], request: "../cart", from: "sub/main.js", expected: "cart.js"),
        Case(files: ["sub/index.js", "sub/main.js"], request: ".", from: "sub/main.js", expected: "sub/index.js"),
        Case(files: ["index.mjs", "sub/main.ts"], request: "..", from: "sub/main.ts", kind: .import, expected: "index.mjs"),
        Case(files: ["cart.js"], request: "$ROOT/cart", expected: "cart.js"),
        Case(files: ["cart.js"], request: "file://$ROOT/cart.js", kind: .import, expected: "cart.js"),
        Case(files: ["a b.js"], request: "file://$ROOT/a%20b", from: "main.ts", kind: .import, expected: "a b.js"),
        Case(files: ["a b.js"], request: "file://$ROOT/a%20b.js", kind: .import, expected: "a b.js"),
        Case(files: ["k.ts"], request: "./k.js", kind: .import, expected: "k.ts"),
        Case(files: ["l.mts"], request: "./l.mjs", from: "main.mjs", kind: .import, expected: "l.mts"),
        Case(files: ["lib/entry.ts", "lib/index.js"], request: "./lib/entry.js", expected: "lib/entry.ts"),
    ]

    @Test("a path names the exact file, then the file with .js .ts .mjs .mts .cjs .cts .json, then a folder's index", arguments: cases)
    func paths(_ test: Case) throws {
        let app = try AppFolder(Dictionary((test.files + [test.from]).map { ($0, "") }) { first, _ in first })
        defer { app.remove() }
        #expect(try app.resolve(test.request, from: test.from, kind: test.kind) == test.expected)
    }

    @Test("a folder's package.json main is its entry for require; module, then main, for import, as bundlers read them")
    func entryFields() throws {
        let app = try AppFolder([
            "pkg/package.json": #"{"main": "cjs.js", "module": "esm/index"}"#, "pkg/cjs.js": "", "pkg/esm/index.mjs": "", "pkg/index.js": "",
            "lib/package.json": #"{"main": "./src"}"#, "lib/src/index.ts": "",
            "stale/package.json": #"{"main": "dist/gone.js", "module": "dist/gone.mjs"}"#, "stale/index.cjs": "",
        ])
        defer { app.remove() }
        #expect(try app.resolve("./pkg") == "pkg/cjs.js")
        #expect(try app.resolve("./pkg", from: "main.ts", kind: .import) == "pkg/esm/index.mjs")
        #expect(try app.resolve("./lib", from: "main.ts", kind: .import) == "lib/src/index.ts")
        #expect(try app.resolve("./stale") == "stale/index.cjs")
    }

    @Test("an import from JavaScript names the file itself, as node's does: no extension added, no folder's index, and node's hint")
    func importsFromJavaScript() throws {
        let app = try AppFolder(["greeting.js": "", "lib/index.js": "", "lib/deep.mjs": "", "shapes.ts": "", "main.mjs": "", "main.cjs": "",
                                 "sub/main.js": "", "data.json": "", "package.json": #"{"type": "module"}"#])
        defer { app.remove() }
        for from in ["main.js", "main.mjs", "main.cjs"] {
            let missing = try #require(app.error("./greeting", from: from, kind: .import))
            #expect(missing.code == .moduleNotFound)
            #expect(missing.message == "Cannot find module '\(app.root)/greeting' imported from \(app.root)/\(from)\nDid you mean to import \"./greeting.js\"?")
        }
        let folder = try #require(app.error("./lib", kind: .import))
        #expect(folder.code == .unsupportedDirectoryImport)
        #expect(folder.message == "Directory import '\(app.root)/lib' is not supported resolving ES modules imported from \(app.root)/main.js"
                + "\nDid you mean to import \"./lib/index.js\"?")
        #expect(app.error("../greeting", from: "sub/main.js", kind: .import)?.message.hasSuffix("\nDid you mean to import \"../greeting.js\"?") == true)
        #expect(app.error("./nothing", kind: .import)?.message == "Cannot find module '\(app.root)/nothing' imported from \(app.root)/main.js")
        // What the author wrote is found: the file, TypeScript's `.js` for `.ts`; require and TypeScript importers still search.
        #expect(try app.resolve("./greeting.js", kind: .import) == "greeting.js")
        #expect(try app.resolve("./data.json", kind: .import) == "data.json")
        #expect(try app.resolve("./shapes.js", kind: .import) == "shapes.ts")
        #expect(try app.resolve("./greeting") == "greeting.js")
        #expect(try app.resolve("./greeting", from: "main.ts", kind: .import) == "greeting.js")
        #expect(try app.resolve("./lib", from: "main.ts", kind: .import) == "lib/index.js")
        // Node's own answers: what its import() of each does (import.meta.resolve does not look
        // for the file) and its error's code. (Its hint comes with static imports only:
        // ModuleConformanceTests compares that.)
        let requests = ["./greeting", "./greeting.js", "./lib", "./lib/", "./lib/index.js", "./lib/deep", "./lib/deep.mjs"]
        try app.write("node-probe.mjs", """
            for (const request of process.argv.slice(2)) {
              console.log(await import(request).then(() => "found", (error) => error.code));
            }
            """)
        let node = try ChildProcess.run(NodeResolution.executable ?? "node", [app.root + "/node-probe.mjs"] + requests)
        let answers = String(decoding: node.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(answers.count == requests.count, "node: \(answers)")
        for (request, answer) in zip(requests, answers) {
            let error = app.error(request, from: "node-probe.mjs", kind: .import)
            let ours = error.map { $0.code == .moduleNotFound ? "ERR_MODULE_NOT_FOUND" : $0.code.rawValue } ?? "found"
            #expect(ours == answer, "import \(request)")
        }
    }

    @Test("a path that names nothing is MODULE_NOT_FOUND naming the request, the importing file and the candidates")
    func notFound() throws {
        let app = try AppFolder(["main.ts": "", "cart/readme.md": ""])
        defer { app.remove() }
        let error = try #require(app.error("./cart.js", from: "main.ts", kind: .import))
        #expect(error.code == .moduleNotFound)
        #expect(error.message == "Cannot find module './cart.js' imported from \(app.root)/main.ts (tried \(app.root)/cart.js, \(app.root)/cart.ts, "
                + "\(app.root)/cart.js.{js,ts,mjs,mts,cjs,cts,json})")
        let folder = try #require(app.error("./cart", from: "main.ts"))
        #expect(folder.message.hasPrefix("Cannot find module './cart' required from \(app.root)/main.ts (tried \(app.root)/cart, "))
        #expect(folder.message.hasSuffix("\(app.root)/cart/index.{js,ts,mjs,mts,cjs,cts,json})"))
    }

    @Test("requests that are no path, package or file URL are ERR_INVALID_MODULE_SPECIFIER",
          arguments: [("", ModuleRequestKind.require), ("file:///app/a.js", .require), ("https://example.com/a.js", .import),
                      ("@scope", .require), ("@scope/", .import), (".hidden", .require), ("file://host/a.js", .import)])
    func invalid(request: String, kind: ModuleRequestKind) throws {
        let app = try AppFolder()
        defer { app.remove() }
        #expect(app.error(request, kind: kind)?.code == .invalidModuleSpecifier)
    }

    @Test("a file reached through a symbolic link resolves to its real path, so it is one module")
    func symbolicLinks() throws {
        let app = try AppFolder(["packages/shared/index.js": "", "packages/shared/package.json": "{}"])
        defer { app.remove() }
        try app.write("node_modules/.keep", "")
        #expect(symlink("../packages/shared", app.root + "/node_modules/shared") == 0)
        #expect(symlink("packages/shared/index.js", app.root + "/shared.js") == 0)
        #expect(try app.resolve("shared") == "packages/shared/index.js")
        #expect(try app.resolve("./shared") == "packages/shared/index.js")
        #expect(try app.resolve("./node_modules/shared/index.js", kind: .import) == "packages/shared/index.js")
    }
}
