import ScriptSources
import Testing

/// How a file is evaluated: by its extension, else by the nearest package.json's "type".
@Suite struct ModuleFormatTests {
    @Test("the extension decides for .mjs .mts .cjs .cts .json, whatever the package's type",
          arguments: [("a.mjs", ModuleFormat.module), ("a.mts", .module), ("a.cjs", .commonJS), ("a.cts", .commonJS), ("a.json", .json)])
    func byExtension(file: String, format: ModuleFormat) throws {
        let app = try AppFolder(["package.json": #"{"type": "module"}"#, file: ""])
        defer { app.remove() }
        #expect(try app.resolver.format(of: app.root + "/" + file) == format)
        #expect(try app.resolver.resolve("./" + file, from: app.root + "/main.js", kind: .require).format == format)
    }

    @Test(".js and .ts take the type of the first package.json found walking up; with none, .js is CommonJS and .ts an ES module")
    func byPackageType() throws {
        let app = try AppFolder([
            "package.json": #"{"type": "module"}"#, "main.js": "", "src/app.ts": "",
            "legacy/package.json": #"{"name": "legacy"}"#, "legacy/old.js": "", "legacy/deep/newer.ts": "",
            "cjs/package.json": #"{"type": "commonjs"}"#, "cjs/a.js": "", "cjs/b.ts": "",
            // No package.json of its own: the walk goes on past node_modules to the app's.
            "node_modules/bare/index.js": "",
        ])
        defer { app.remove() }
        for (file, format) in [("main.js", ModuleFormat.module), ("src/app.ts", .module), ("legacy/old.js", .commonJS),
                               ("legacy/deep/newer.ts", .module), ("cjs/a.js", .commonJS), ("cjs/b.ts", .commonJS),
                               ("node_modules/bare/index.js", .module)] {
            #expect(try app.resolver.format(of: app.root + "/" + file) == format, "\(file)")
        }
    }

    @Test("a malformed package.json is ERR_INVALID_PACKAGE_CONFIG naming the file and the JSON error")
    func malformed() throws {
        let app = try AppFolder(["broken/package.json": "{\"type\": \"module\",\n}", "broken/main.js": "", "node_modules/bad/package.json": "[1]",
                                 "node_modules/bad/index.js": ""])
        defer { app.remove() }
        let error = try #require(throws: ModuleResolutionError.self) { try app.resolver.format(of: app.root + "/broken/main.js") }
        #expect(error.code == .invalidPackageConfig)
        #expect(error.message.hasPrefix("Invalid package config \(app.root)/broken/package.json: line 2, column 1: "))
        #expect(app.error("bad", from: "node_modules/x.cjs")?.message == "Invalid package config \(app.root)/node_modules/bad/package.json: expected an object, got array")
    }
}
