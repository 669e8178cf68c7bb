import Foundation
import HostTesting
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
            let node = try HybridProcess.tool(["node", main], directory: directory)
            #expect(ours.status == node.status, "hybrid: \(ours)\nnode: \(node.output)")
            #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        }
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
        let node = try HybridProcess.tool(["node", "main.mjs"], directory: URL(fileURLWithPath: folder.path))
        #expect(ours.status == 0, "\(ours)")
        #expect(node.status == 0, "node: \(node.output)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        #expect(ours.standardOutput.contains("b685b99a-d090-5f9f-b031-7b1174a17e79 true"), "\(ours)")
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
