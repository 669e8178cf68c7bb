import Foundation
import HostTesting
import SystemIO
import Testing

/// ES modules, CommonJS and TypeScript as `hybrid run` loads them, case by case
/// (Fixtures/modules/*: cycles, live bindings, default and namespace interop, export forms,
/// import(), top-level await, import.meta, package "type", syntax detection, require of an ES
/// module). Each case runs under `hybrid run` and, where node can run it, under node: the two
/// must print the same and exit alike. A case node cannot run (TypeScript; behaviour node 20
/// lacks, such as require of an ES module) has an expected.txt instead.
@Suite struct ModuleConformanceTests {
    static let folder = HybridProcess.fixtures.appendingPathComponent("modules")

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("the conformance set is there")
    func casesExist() {
        #expect(Self.cases.count >= 12, "\(Self.cases)")
    }

    @Test("each case prints what node prints (or its expected.txt)", arguments: Self.cases)
    func conformance(name: String) async throws {
        let directory = Self.folder.appendingPathComponent(name)
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let main = try #require(entries.first { $0.hasPrefix("main.") }, "\(name) has no main module")
        let ours = try await HybridProcess.run(["run", directory.appendingPathComponent(main).path], timeLimit: .seconds(120))
        let expectedFile = directory.appendingPathComponent("expected.txt")
        if FileManager.default.fileExists(atPath: expectedFile.path) {
            let expected = try String(contentsOf: expectedFile, encoding: .utf8)
            #expect(ours.status == 0, "\(ours)")
            #expect(ours.standardOutput == expected, "\(ours)")
        } else {
            let node = try await HybridProcess.tool(["node", main], directory: directory)
            #expect(ours.status == node.status, "hybrid: \(ours)\nnode: \(node.output)")
            #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        }
    }

    /// A module graph run under node and `hybrid run`: the same exit code and stdout, and `line`
    /// (with `$DIR` the folder) in both stderrs; `ours` in ours only: where node 20 says nothing
    /// (node 22 prints the unsettled await's place) or less (the hint for a folder).
    struct NodeCase: CustomTestStringConvertible, Sendable {
        let name: String
        let files: [String: String]
        var main = "main.mjs"
        var line: String? = nil
        var ours: String? = nil
        var testDescription: String { name }
    }

    static let nodeCases: [NodeCase] = [
        NodeCase(name: "a named import the module does not export is a SyntaxError before any module runs", files: [
            "m.mjs": "console.log('m runs');\nexport const here = 1;\n",
            "main.mjs": "console.log('main runs');\nimport { here, nothere } from './m.mjs';\nconsole.log(here, nothere);\n",
        ], line: "SyntaxError: The requested module './m.mjs' does not provide an export named 'nothere'",
           ours: "Uncaught SyntaxError: The requested module './m.mjs' does not provide an export named 'nothere'\n    at $DIR/main.mjs:2:16\n"),
        NodeCase(name: "a default import of a module without one", files: [
            "m.mjs": "export const here = 1;\n", "main.mjs": "import answer from './m.mjs';\nconsole.log(answer);\n",
        ], line: "SyntaxError: The requested module './m.mjs' does not provide an export named 'default'"),
        NodeCase(name: "a re-export of a missing name, two modules down, stops the first module too", files: [
            "m.mjs": "export const here = 1;\n", "middle.mjs": "console.log('middle runs');\nexport { gone } from './m.mjs';\n",
            "main.mjs": "console.log('main runs');\nimport './middle.mjs';\n",
        ], line: "SyntaxError: The requested module './m.mjs' does not provide an export named 'gone'"),
        NodeCase(name: "names through export * (but default), export * as, and a cycle of export * are found", files: [
            "a.mjs": "export const a = 'a';\nexport default 'not re-exported';\nexport * from './b.mjs';\n",
            "b.mjs": "export const b = 'b';\nexport * from './a.mjs';\n",
            "c.mjs": "export * as ns from './a.mjs';\nexport * from './a.mjs';\n",
            "main.mjs": "import { a, b, ns } from './c.mjs';\nconsole.log(a, b, ns.b);\n",
        ]),
        NodeCase(name: "a name missing behind export * is a SyntaxError", files: [
            "a.mjs": "export const a = 'a';\n", "c.mjs": "export * from './a.mjs';\n",
            "main.mjs": "import { a, z } from './c.mjs';\nconsole.log(a, z);\n",
        ], line: "SyntaxError: The requested module './c.mjs' does not provide an export named 'z'"),
        NodeCase(name: "in a cycle, a missing name is found before either module runs; present ones link", files: [
            "a.mjs": "console.log('a runs');\nimport { b } from './b.mjs';\nexport function a() { return b; }\n",
            "b.mjs": "console.log('b runs');\nimport { a, nope } from './a.mjs';\nexport const b = 1;\n",
            "main.mjs": "import { a } from './a.mjs';\nconsole.log(a());\n",
        ], line: "SyntaxError: The requested module './a.mjs' does not provide an export named 'nope'"),
        NodeCase(name: "a module that awaits at top level: its exports link, a missing one stops it before it starts", files: [
            "slow.mjs": "console.log('slow starts');\nexport const value = await Promise.resolve(2);\n",
            "main.mjs": "import { value } from './slow.mjs';\nconsole.log(value);\nconst { late } = await import('./late.mjs').catch((e) => ({ late: e.message }));\nconsole.log(late);\n",
            "late.mjs": "console.log('late starts');\nimport { value, missing } from './slow.mjs';\nexport const late = value;\n",
        ]),
        NodeCase(name: "import() from CommonJS gives the namespace, after the module's top-level await", files: [
            "m.mjs": "export const value = await Promise.resolve(42);\nexport default 'm';\n",
            "c.cjs": "module.exports = { kind: 'cjs' };\n",
            "main.cjs": """
                console.log('before');
                (async () => {
                  const ns = await import('./m.mjs');
                  console.log(ns.value, ns.default, Object.keys(ns).sort());
                  console.log((await import('./c.cjs')).default.kind);
                  const text = "import('./not-a-call.mjs')"; // import('./nor-this.mjs')
                  await import('./missing.mjs').catch((error) => console.log(error.code));
                  await import('./c').catch((error) => console.log(error.code));
                })();
                console.log('after');
                """,
        ], main: "main.cjs"),
        NodeCase(name: "a top-level await that never settles exits 13", files: [
            "main.mjs": "console.log('start');\nawait new Promise(() => {});\nconsole.log('never');\n",
        ], ours: "Warning: Detected unsettled top-level await at file://$DIR/main.mjs:2\nawait new Promise(() => {});\n^\n"),
        NodeCase(name: "one that never settles in an imported module names that module", files: [
            "lib.mjs": "export const ready = true;\n  const never = await new Promise(() => {});\n",
            "main.mjs": "import { ready } from './lib.mjs';\nconsole.log(ready);\n",
        ], ours: "Warning: Detected unsettled top-level await at file://$DIR/lib.mjs:2\n  const never = await new Promise(() => {});\n                ^\n"),
        NodeCase(name: "an unsettled module reached through import() from CommonJS does not hold the exit code", files: [
            "lib.mjs": "await new Promise(() => {});\n", "main.cjs": "import('./lib.mjs').then(() => console.log('never'));\nconsole.log('main done');\n",
        ], main: "main.cjs"),
        NodeCase(name: "an import without its extension is refused with node's hint", files: [
            "greeting.js": "export const greeting = 'hi';\n", "package.json": #"{"type": "module"}"#,
            "main.js": "import { greeting } from './greeting';\nconsole.log(greeting);\n",
        ], main: "main.js", line: "Cannot find module '$DIR/greeting' imported from $DIR/main.js\nDid you mean to import \"./greeting.js\"?"),
        NodeCase(name: "an import of a folder is refused with node's hint", files: [
            "lib/index.mjs": "export default 1;\n", "main.mjs": "import one from './lib';\nconsole.log(one);\n",
        ], line: "Directory import '$DIR/lib' is not supported resolving ES modules imported from $DIR/main.mjs",
           ours: "Did you mean to import \"./lib/index.mjs\"?"),
    ]

    @Test("node's link errors, import() from CommonJS, unsettled top-level await and extensions, as node has them", arguments: Self.nodeCases)
    func asNodeHasIt(_ test: NodeCase) async throws {
        let folder = TemporaryFolder(prefix: "hybrid-modules")
        defer { folder.remove() }
        for (name, text) in test.files { _ = try folder.write(name, text) }
        let directory = FileSystem.realPath(folder.path) ?? folder.path
        let main = directory + "/" + test.main
        let ours = try await HybridProcess.run(["run", main], timeLimit: .seconds(120))
        // From the app's folder: node's "Did you mean" hint is right only from there.
        let node = try ChildProcess.run("/bin/sh", ["-c", "cd \"$0\" && exec node \"$1\"", directory, main])
        let nodeOutput = String(decoding: node.output, as: UTF8.self), nodeErrors = String(decoding: node.errorOutput, as: UTF8.self)
        #expect(ours.status == node.status, "hybrid: \(ours)\nnode: \(node.status) \(nodeOutput)\(nodeErrors)")
        #expect(ours.standardOutput == nodeOutput, "hybrid: \(ours)\nnode: \(nodeOutput)")
        if let line = test.line?.replacingOccurrences(of: "$DIR", with: directory) {
            #expect(nodeErrors.contains(line), "node: \(nodeErrors)")
            #expect(ours.standardError.hasPrefix("Uncaught ") && ours.standardError.contains(line), "hybrid: \(ours)")
        }
        if let expected = test.ours?.replacingOccurrences(of: "$DIR", with: directory) {
            #expect(ours.standardError.contains(expected), "hybrid: \(ours)")
        }
    }

    @Test("an ES module's import of ./x.js is x.ts when only that is there (TypeScript's rule)")
    func typeScriptSourceForJS() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-modules")
        defer { folder.remove() }
        _ = try folder.write("shapes.ts", "export const area = (side: number): number => side * side;\n")
        let main = try folder.write("main.mjs", "import { area } from './shapes.js';\nconsole.log(area(3));\n")
        let result = try await HybridProcess.run(["run", main])
        #expect(result.standardOutput == "9\n", "\(result)")
    }

    @Test("real npm packages (Debian's semver, lodash, uuid, copied into node_modules) import and require as under node")
    func publishedPackages() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-npm")
        defer { folder.remove() }
        // semver needs lru-cache, which needs yallist: Debian installs both with node-semver.
        for package in ["semver", "lru-cache", "yallist", "lodash", "uuid"] {
            try FileManager.default.copyItem(atPath: "/usr/share/nodejs/" + package, toPath: folder.path + "/node_modules/" + package)
        }
        try folder.write("main.mjs", """
            import semver from "semver";
            import _ from "lodash";
            import { v5 as uuidv5, validate } from "uuid";
            import { load } from "./load.cjs";
            console.log(semver.satisfies("1.2.3", "^1.0.0"), semver.inc("1.2.3", "minor"));
            console.log(_.chunk([1, 2, 3, 4, 5], 2), _.camelCase("hybrid host"));
            const id = uuidv5("hybridhost.example", uuidv5.DNS);
            console.log(id, validate(id));
            console.log(load("semver/functions/satisfies")("2.0.0", ">=1"), typeof load("lodash/fp").map);
            """)
        try folder.write("load.cjs", "exports.load = (name) => require(name);\n")
        let ours = try await HybridProcess.run(["run", folder.path + "/main.mjs"], timeLimit: .seconds(120))
        let node = try await HybridProcess.tool(["node", "main.mjs"], directory: URL(fileURLWithPath: folder.path))
        #expect(ours.status == 0, "\(ours)")
        #expect(node.status == 0, "node: \(node.output)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        #expect(ours.standardOutput.contains("b685b99a-d090-5f9f-b031-7b1174a17e79 true"), "\(ours)")
    }

    @Test("require of a bare name finds node_modules/name.js before the folder, and NODE_PATH's name.js, as node does; import() does not")
    func bareNameAsFile() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-npm")
        defer { folder.remove() }
        // "type": "module", as `hybrid init` writes it: a file right in node_modules is in no
        // package, so greet.js is CommonJS all the same.
        try folder.write("app/package.json", #"{"type": "module"}"#)
        try folder.write("app/node_modules/greet.js", "module.exports = (name) => `hello ${name}`;\n")
        try folder.write("app/node_modules/both.js", "exports.which = 'the file';\n")
        try folder.write("app/node_modules/both/index.js", "exports.which = 'the folder';\n")
        try folder.write("global/shared.js", "exports.where = 'NODE_PATH';\n")
        try folder.write("global/settings.json", #"{"name": "from NODE_PATH's settings.json"}"#)
        try folder.write("app/main.cjs", """
            console.log(require("greet")("node_modules/greet.js"));
            console.log(require("both").which);
            console.log(require("shared").where, require("settings").name);
            import("greet").catch((error) => console.log(error.code));

            """)
        let directory = FileSystem.realPath(folder.path) ?? folder.path
        let environment = ["NODE_PATH": directory + "/global"]
        let ours = try await HybridProcess.run(["run", directory + "/app/main.cjs"], environment: environment)
        let node = try await HybridProcess.tool(["node", "main.cjs"], directory: URL(fileURLWithPath: directory + "/app"), environment: environment,
                                          mergingErrors: true)
        #expect(node.output == "hello node_modules/greet.js\nthe file\nNODE_PATH from NODE_PATH's settings.json\nERR_MODULE_NOT_FOUND\n", "node: \(node.output)")
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
    }

    @Test("Debian's node-jose loads its web-platform build (exports' \"worker\"), as node does when told to match worker",
          .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/nodejs/jose"), "scripts/install-deps installs node-jose"))
    func joseWorkerBuild() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-npm")
        defer { folder.remove() }
        let directory = FileSystem.realPath(folder.path) ?? folder.path
        try FileManager.default.createDirectory(atPath: directory + "/node_modules", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/nodejs/jose", toPath: directory + "/node_modules/jose")
        try folder.write("main.cjs", """
            console.log(require.resolve("jose").slice(__dirname.length));
            // The web build reads the global crypto (WebCrypto) as it loads, and needs it only to
            // sign, verify, encrypt and decrypt. The host has no WebCrypto yet: this stand-in is
            // the test's, and under node (which has crypto) it is not used.
            globalThis.crypto ??= { getRandomValues: (array) => array.fill(4) };
            import("jose").then((jose) => {
              const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImlhdCI6MTUxNjIzOTAyMn0.c2ln";
              console.log(JSON.stringify(jose.decodeJwt(token)), JSON.stringify(jose.decodeProtectedHeader(token)));
              console.log(jose.base64url.encode("hybrid"), new TextDecoder().decode(jose.base64url.decode("aHlicmlk")));
            });

            """)
        let ours = try await HybridProcess.run(["run", directory + "/main.cjs"], timeLimit: .seconds(120))
        let node = try await HybridProcess.tool(["node", "--conditions=worker", "main.cjs"], directory: URL(fileURLWithPath: directory), mergingErrors: true)
        #expect(node.output == "/node_modules/jose/dist/browser/index.js\n{\"sub\":\"alice\",\"iat\":1516239022} {\"alg\":\"HS256\"}\naHlicmlk hybrid\n",
                "node: \(node.output)")
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        // Without the condition node takes the Node build, which needs node's crypto module.
        let plain = try await HybridProcess.tool(["node", "-p", "require.resolve('jose')"], directory: URL(fileURLWithPath: directory))
        #expect(plain.output == directory + "/node_modules/jose/dist/node/cjs/index.js\n")
    }

    @Test("a package that is not installed is an error naming it and the folders searched")
    func missingPackage() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-npm")
        defer { folder.remove() }
        let main = try folder.write("main.js", "require('left-pad');\n")
        let result = try await HybridProcess.run(["run", main])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("Uncaught Error: Cannot find package 'left-pad' required from \(main) (looked for node_modules/left-pad in \(folder.path), "), "\(result)")
    }

    @Test("a TypeScript syntax error names the .ts file, line and column, and nothing runs")
    func typeScriptSyntaxError() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-modules")
        defer { folder.remove() }
        let path = try folder.write("broken.ts", "console.log('ran');\nconst total: = 1;\n")
        let result = try await HybridProcess.run(["run", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("SyntaxError"), "\(result)")
        #expect(result.standardError.hasPrefix("Uncaught SyntaxError: Unexpected \"=\"\n    at \(path):2:14\n"), "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }

    @Test("a module that awaits, required from CommonJS, is refused while it evaluates")
    func awaitingModuleFromCommonJS() async throws {
        let main = Self.folder.appendingPathComponent("require-tla/main.cjs").path
        let result = try await HybridProcess.run(["run", main])
        #expect(result.standardOutput == "ERR_REQUIRE_ASYNC_MODULE\n", "\(result)")
    }

    @Test("the transform cache: a second start reads it, a changed file is transformed again")
    func transformCache() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-modules")
        defer { folder.remove() }
        let cache = folder.path + "/cache"
        let path = try folder.write("main.ts", "const n: number = 1;\nconsole.log(n);\n")
        let environment = ["HYBRID_CACHE_DIR": cache]
        let first = try await HybridProcess.run(["run", path], environment: environment)
        #expect(first.standardOutput == "1\n", "\(first)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".js") }
        #expect(entries.count == 1, "\(entries)")
        let second = try await HybridProcess.run(["run", path], environment: environment)
        #expect(second.standardOutput == "1\n", "\(second)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".js") }.count == 1)
        _ = try folder.write("main.ts", "const n: number = 2;\nconsole.log(n);\n")
        let third = try await HybridProcess.run(["run", path], environment: environment)
        #expect(third.standardOutput == "2\n", "\(third)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".js") }.count == 2)
    }

    @Test("without esbuild, a TypeScript app fails with how to install it; plain CommonJS still runs")
    func withoutEsbuild() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-modules")
        defer { folder.remove() }
        let ts = try folder.write("main.ts", "console.log(1 as number);\n")
        let js = try folder.write("plain.js", "console.log(require('./data.json').ok);\n")
        _ = try folder.write("data.json", "{\"ok\": true}")
        let environment = ["HYBRID_ESBUILD": folder.path + "/no-such-esbuild", "HYBRID_CACHE_DIR": folder.path + "/cache"]
        let refused = try await HybridProcess.run(["run", ts], environment: environment)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("esbuild"), "\(refused)")
        let plain = try await HybridProcess.run(["run", js], environment: environment)
        #expect(plain.standardOutput == "true\n", "\(plain)")
    }
}
