import Glibc
import ScriptSources
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
        Case(files: ["e.json"], request: "./e", kind: .import, expected: "e.json"),
        Case(files: ["g.ts"], request: "./g.js", expected: "g.ts"),
        Case(files: ["h.mts"], request: "./h.mjs", kind: .import, expected: "h.mts"),
        Case(files: ["i.cts"], request: "./i.cjs", expected: "i.cts"),
        Case(files: ["j.js", "j.ts"], request: "./j.js", expected: "j.js"),
        Case(files: ["dir/index.ts", "dir/index.json"], request: "./dir", expected: "dir/index.ts"),
        Case(files: ["x.js", "x/index.js"], request: "./x", expected: "x.js"),
        Case(files: ["x.js", "x/index.js"], request: "./x/", expected: "x/index.js"),
        Case(files: ["cart.js", "sub/main.js"], request: "../cart", from: "sub/main.js", expected: "cart.js"),
        Case(files: ["sub/index.js", "sub/main.js"], request: ".", from: "sub/main.js", expected: "sub/index.js"),
        Case(files: ["index.mjs", "sub/main.js"], request: "..", from: "sub/main.js", kind: .import, expected: "index.mjs"),
        Case(files: ["cart.js"], request: "$ROOT/cart", expected: "cart.js"),
        Case(files: ["cart.js"], request: "file://$ROOT/cart.js", kind: .import, expected: "cart.js"),
        Case(files: ["a b.js"], request: "file://$ROOT/a%20b", kind: .import, expected: "a b.js"),
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
        #expect(try app.resolve("./pkg", kind: .import) == "pkg/esm/index.mjs")
        #expect(try app.resolve("./lib", kind: .import) == "lib/src/index.ts")
        #expect(try app.resolve("./stale") == "stale/index.cjs")
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
