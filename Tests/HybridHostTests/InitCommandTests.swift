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
            let checked = try await HybridProcess.tool(["tsc", "-p", app], mergingErrors: true)
            #expect(checked.status == 0, "tsc -p: \(checked.output)")
        } else {
            // Its imports are node's too (`./greeting.js`, not `./greeting`): node loads the app
            // and stops only at `Hybrid`, which only the host defines.
            let node = try await HybridProcess.tool(["node", "main.js"], directory: URL(fileURLWithPath: app), mergingErrors: true)
            #expect(node.output.contains("ReferenceError: Hybrid is not defined"), "node main.js: \(node.output)")
        }
    }

    @Test("an init'd TypeScript app type-checks the web globals the host has, and tsc rejects document and window, which it has not")
    func webGlobalsTypeCheck() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-init")
        defer { folder.remove() }
        let app = folder.path + "/web"
        let made = try await HybridProcess.run(["init", app, "--typescript"])
        try #require(made.status == 0, "\(made)")
        let config = try String(contentsOfFile: app + "/tsconfig.json", encoding: .utf8)
        #expect(config.contains(#""lib": ["ES2022"],"#), "\(config)")
        try folder.write("web/web.ts", """
            const url = new URL("/search?q=tea", "https://shop.example");
            url.searchParams.append("page", "2");
            const body: string = new TextDecoder("gbk").decode(new Uint8Array([0xc4, 0xe3, 0xba, 0xc3]));
            localStorage.setItem("token", "t-1");
            const token: string | null = localStorage.getItem("token");
            const state = structuredClone({ cart: [1, 2], at: new Date(0) });
            const signal = AbortSignal.timeout(5000);
            const language: string = navigator.language;
            performance.mark("ready");
            console.log(url.href, body, token, state.cart.length, signal.aborted, typeof language, btoa("hi"));
            export {};

            """)
        let checked = try await HybridProcess.tool(["tsc", "-p", app], mergingErrors: true)
        #expect(checked.status == 0, "tsc -p: \(checked.output)")
        let ran = try await HybridProcess.run(["run", app + "/web.ts"], timeLimit: .seconds(60))
        #expect(ran.status == 0, "\(ran)")
        #expect(ran.standardOutput == "https://shop.example/search?q=tea&page=2 你好 t-1 2 false string aGk=\n", "\(ran)")

        try folder.write("web/page.ts", """
            document.body.append("hi");
            window.alert("hi");
            export {};

            """)
        let refused = try await HybridProcess.tool(["tsc", "-p", app], mergingErrors: true)
        #expect(refused.status != 0, "tsc -p accepted document: \(refused.output)")
        #expect(refused.output.contains("page.ts(1,1): error TS2584: Cannot find name 'document'."), "\(refused.output)")
        #expect(refused.output.contains("page.ts(2,1): error TS2304: Cannot find name 'window'."), "\(refused.output)")
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
