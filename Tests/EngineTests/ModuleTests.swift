import Engine
import JSON
import Testing

@Suite("require")
struct ModuleTests {
    /// Runs `main.js` of `files` and returns its `module.exports`.
    func exports(of files: [String: String], main: String = "main.js") async throws -> (EngineOutcome, JSONValue) {
        try await withFiles(files) { (root) async throws in
            try await withEngine { (host) async throws in
                let path = root + "/" + main
                let value = try await host.engine.perform { context in
                    try context.mainExports(path)
                }
                return (await host.idle(), value)
            }
        }
    }

    @Test("relative paths resolve from the requiring file, with or without .js, and folders by index.js")
    func relativePaths() async throws {
        let (outcome, value) = try await exports(of: [
            "main.js": """
                const cart = require("./lib/cart");
                const same = require("./lib/cart.js");
                const money = require("./lib/money/");
                module.exports = {total: cart.total([1, 2, 3]), same: cart === same, format: money.format(6)};
                """,
            "lib/cart.js": "const money = require('./money'); exports.total = (xs) => money.sum(xs);",
            "lib/money/index.js": "exports.sum = (xs) => xs.reduce((a, b) => a + b, 0); exports.format = (n) => `${n}.00 EUR`;",
        ])
        #expect(outcome == .idle)
        #expect(value == ["total": 6, "same": true, "format": "6.00 EUR"])
    }

    @Test("require ../ climbs folders, and __filename and __dirname are absolute")
    func parentPaths() async throws {
        try await withFiles([
            "app/main.js": "module.exports = require('../shared/names.js');",
            "shared/names.js": "module.exports = {file: __filename, dir: __dirname};",
        ]) { (root) async throws in
            try await withEngine { (host) async throws in
                let path = root + "/app/main.js"
                let value = try await host.engine.perform { context in try context.mainExports(path) }
                #expect(value["file"]?.stringValue?.hasSuffix("/shared/names.js") == true)
                #expect(value["dir"]?.stringValue?.hasSuffix("/shared") == true)
                #expect(value["file"]?.stringValue?.hasPrefix("/") == true)
            }
        }
    }

    @Test(".json files are parsed, and a broken one names the file")
    func jsonModules() async throws {
        let (_, value) = try await exports(of: [
            "main.js": "const config = require('./config.json'); const again = require('./config'); module.exports = {name: config.name, same: config === again};",
            "config.json": #"{"name": "tasks", "limits": [1, 2]}"#,
        ])
        #expect(value == ["name": "tasks", "same": true])

        try await withFiles(["main.js": "require('./broken.json')", "broken.json": "{\"name\": "]) { (root) async throws in
            try await withEngine { (host) async throws in
                host.startMain(root + "/main.js")
                let failure = try #require(await host.idle().failure)
                #expect(failure.name == "SyntaxError")
                #expect(failure.message.contains("broken.json"))
            }
        }
    }

    @Test("the module cache hands out the same object every time, and runs the module once")
    func moduleCache() async throws {
        let (_, value) = try await exports(of: [
            "main.js": """
                const a = require("./counter");
                const b = require("./counter");
                const c = require("./sub/../counter.js");
                a.bump();
                module.exports = {same: a === b && b === c, loads: globalThis.loads, count: c.count()};
                """,
            "counter.js": "globalThis.loads = (globalThis.loads || 0) + 1; let n = 0; exports.bump = () => n++; exports.count = () => n;",
            "sub/.keep": "",
        ])
        #expect(value == ["same": true, "loads": 1, "count": 1])
    }

    @Test("a cycle sees the partial exports of the module still loading, as in node")
    func cycles() async throws {
        let (outcome, value) = try await exports(of: [
            "main.js": """
                const a = require("./a");
                module.exports = {aSawOfB: a.sawOfB, bSawOfA: require("./b").sawOfA, aDone: a.done};
                """,
            "a.js": """
                exports.early = "a-early";
                const b = require("./b");
                exports.sawOfB = {done: b.done};
                exports.late = "a-late";
                exports.done = true;
                """,
            "b.js": """
                const a = require("./a");
                exports.sawOfA = {early: a.early, late: a.late === undefined ? "not yet" : a.late, done: a.done === true};
                exports.done = true;
                """,
        ])
        #expect(outcome == .idle)
        #expect(value == [
            "aSawOfB": ["done": true],
            "bSawOfA": ["early": "a-early", "late": "not yet", "done": false],
            "aDone": true,
        ])
    }

    @Test("a missing module is an error naming the request and the requiring file", arguments: [
        ("./nope", "Cannot find module './nope' required from "),
        ("../far/away.js", "Cannot find module '../far/away.js' required from "),
        ("lodash", "Cannot find package 'lodash' required from "),
    ])
    func missingModule(request: String, message: String) async throws {
        try await withFiles(["main.js": "try { require(\(quoted(request))); } catch (e) { module.exports = {message: e.message, code: e.code}; }"]) { (root) async throws in
            try await withEngine { (host) async throws in
                let path = root + "/main.js"
                let value = try await host.engine.perform { context in try context.mainExports(path) }
                let text = try #require(value["message"]?.stringValue)
                #expect(text.contains(message + path), "\(text)")
                #expect(value["code"] == "MODULE_NOT_FOUND")
            }
        }
    }

    @Test("a module that fails to load is not cached: requiring it again runs it again")
    func failedModuleNotCached() async throws {
        let (_, value) = try await exports(of: [
            "main.js": """
                const errors = [];
                for (let i = 0; i < 2; i++) { try { require("./flaky"); } catch (e) { errors.push(e.message); } }
                module.exports = errors;
                """,
            "flaky.js": "globalThis.attempts = (globalThis.attempts || 0) + 1; throw new Error(`attempt ${globalThis.attempts}`);",
        ])
        #expect(value == ["attempt 1", "attempt 2"])
    }

    @Test("an error inside a module reports the module's own file, line and column")
    func errorLocationInModule() async throws {
        try await withFiles([
            "main.js": "require('./lib');",
            "lib.js": "const ok = 1;\nfunction fail() { throw new Error('in lib'); }\nfail();",
        ]) { (root) async throws in
            try await withEngine { (host) async throws in
                host.startMain(root + "/main.js")
                let failure = try #require(await host.idle().failure)
                #expect(failure.message == "in lib")
                #expect(failure.stack.contains("at fail (\(root)/lib.js:2:"))
            }
        }
    }

    @Test("a syntax error in a module names its file and line")
    func syntaxErrorInModule() async throws {
        try await withFiles(["main.js": "require('./bad');", "bad.js": "const a = 1;\nconst b = (;\n"]) { (root) async throws in
            try await withEngine { (host) async throws in
                host.startMain(root + "/main.js")
                let failure = try #require(await host.idle().failure)
                #expect(failure.name == "SyntaxError")
                #expect(failure.sourceURL == root + "/bad.js")
                #expect(failure.line == 2)
                // The column of the unexpected token.
                #expect(failure.location == root + "/bad.js:2:12")
            }
        }
    }
}

private func quoted(_ text: String) -> String { "\"" + text + "\"" }

extension ScriptContext {
    /// Loads `path` as the main module, as `hybrid run` does, and returns its `module.exports`.
    func mainExports(_ path: String) throws -> JSONValue {
        try runMain(path)
        let exports = try evaluate("__hybridModules.cache.get(\(JSONWriter.write(.string(path)))).exports", url: "/virtual/exports.js")
        return try jsonValue(from: exports)
    }
}
