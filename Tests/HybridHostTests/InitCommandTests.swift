import Foundation
import HostTesting
import Testing

/// `hybrid init NAME [--typescript]` as a new user meets it: the app it writes runs, passes its
/// test, and (TypeScript) type-checks with tsc against the generated declarations.
@Suite struct InitCommandTests {
    @Test("hybrid init x --typescript && hybrid run x && hybrid test x pass; tsc -p x type-checks", arguments: [true, false])
    func newApp(typescript: Bool) async throws {
        let folder = TemporaryFolder(prefix: "hybrid-init")
        defer { folder.remove() }
        let app = folder.path + "/shop"
        let made = try await HybridProcess.run(["init", app] + (typescript ? ["--typescript"] : []))
        #expect(made.status == 0, "\(made)")
        let ext = typescript ? "ts" : "js"
        for file in ["app.json", "package.json", "main.\(ext)", "greeting.\(ext)", "main.test.\(ext)", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: app + "/" + file), "\(file) missing")
        }
        let first = try await HybridProcess.run(["run", app])
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput.hasPrefix("Hello from "), "\(first)")
        #expect(first.standardOutput.hasSuffix(": visit number 1\n"), "\(first)")
        let tested = try await HybridProcess.run(["test", app])
        #expect(tested.status == 0, "\(tested)")
        #expect(tested.standardOutput.contains("    ok 2 - kv keeps what the app stores\n"), "\(tested)")
        if typescript {
            let checked = try HybridProcess.tool(["tsc", "-p", app], mergingErrors: true)
            #expect(checked.status == 0, "tsc -p: \(checked.output)")
        }
    }

    @Test("hybrid init refuses a folder that is not empty, and changes nothing in it")
    func refusesNonEmptyFolder() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-init")
        defer { folder.remove() }
        let kept = try folder.write("mine/notes.txt", "keep me")
        let result = try await HybridProcess.run(["init", folder.path + "/mine", "--typescript"])
        #expect(result.status == 2, "a usage error: \(result)")
        #expect(result.standardError.contains("exists and is not empty"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/mine") == ["notes.txt"])
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "keep me")
    }
}
