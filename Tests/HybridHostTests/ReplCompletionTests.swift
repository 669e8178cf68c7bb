import Foundation
import HostTesting
import HybridHost
import Testing

/// Tab completion in `hybrid repl` (``ReplSession/complete(_:terminal:within:)``, js/runtime/repl.js),
/// asked of a REPL session in this process, on the real JS thread; node's own REPL completer is
/// the reference for the properties of values, and completing must never run the app's code.
/// Tests/HybridHostTests/tmux-repl.sh presses Tab in a real terminal.
@Suite("REPL Tab completion")
struct ReplCompletionTests {
    /// A scratch app's REPL in a folder of its own.
    final class Repl {
        let folder = TemporaryFolder(prefix: "repl-complete")
        let session: AppSession
        let repl: ReplSession

        init() throws {
            var options = AppRunOptions(dataDirectory: folder.path + "/data")
            options.output = { _, _ in }
            session = try AppSession(manifest: .scratch(name: "repl", directory: folder.path, grants: ["all"]), options: options)
            repl = ReplSession(session: session)
            let started = repl.start()
            #expect(!started.failed, "\(started.text)")
        }

        /// Evaluates a whole input; its printed result.
        @discardableResult
        func run(_ input: String) -> ReplSession.Result {
            repl.wait { completion in
                let whole = repl.submit(input, completion: completion)
                #expect(whole, "\(input) is not a whole input")
            }
        }

        func complete(_ text: String) throws -> ReplSession.Completion {
            try #require(repl.complete(text, within: 30))
        }

        func close() {
            session.shutdown()
            folder.remove()
        }
    }

    /// Node's REPL completer (`repl.start(...).complete`) after `setup`, for each of `lines`.
    private func nodeCompletions(setup: String, lines: [String]) async throws -> [ReplSession.Completion] {
        let folder = TemporaryFolder(prefix: "repl-complete-node")
        defer { folder.remove() }
        try folder.write("complete.js", """
            const repl = require("node:repl");
            const { PassThrough } = require("node:stream");
            const server = repl.start({ input: new PassThrough(), output: new PassThrough(), terminal: false, prompt: "", useGlobal: true });
            const [setup, lines] = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
            server.eval(setup, server.context, "setup", async (error) => {
              if (error) throw error;
              const answers = [];
              for (const line of lines) answers.push(await new Promise((resolve) => server.complete(line, (_, answer) => resolve(answer))));
              process.stdout.write(JSON.stringify(answers));
              process.exit(0);
            });
            """)
        let input = String(decoding: try JSONSerialization.data(withJSONObject: [setup, lines]), as: UTF8.self)
        let node = try await HybridProcess.tool(["node", folder.path + "/complete.js"], input: input)
        #expect(node.status == 0, "node: \(node.output)")
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(node.output.utf8)) as? [[Any]], "node: \(node.output)")
        return answers.map { ReplSession.Completion(completions: $0[0] as? [String] ?? [], completeOn: $0[1] as? String ?? "") }
    }

    @Test("the properties of a value complete as node's REPL completes them: own last, prototypes first, matched without case")
    func membersAsInNode() async throws {
        let setup = """
            const o = { apple: 1, banana: [2] }; class Cart { add() {} static of() {} }; const cart = new Cart(); var list = [1]; let s = "x y"
            """
        let lines = ["o.", "o.AP", "o.ap", "Math.SQ", "cart.", "Cart.o", "list.fil", "\"abc\".toU", "o?.ba", "o.apple.toF", "missing.",
                     "o.banana[0].toF", "(o).ap", "s.len", "f(o.ap", "1 + o.ap", "`t`.toU", "o[\"apple\"].toF", "o.banana.fin", "2 +"]
        let repl = try Repl()
        defer { repl.close() }
        repl.run(setup)
        let ours = try lines.map { try repl.complete($0) }
        let node = try await nodeCompletions(setup: setup, lines: lines)
        for (line, (mine, theirs)) in zip(lines, zip(ours, node)) {
            #expect(mine == theirs, "\(line)")
        }
        #expect(ours[0].completions.suffix(3) == ["", "o.apple", "o.banana"])
        #expect(ours[1] == ReplSession.Completion(completions: ["o.apple"], completeOn: "o.AP"))
    }

    @Test("global names: the inputs' let, const and class (even from an input that awaited), var and functions, then keywords")
    func globalNames() throws {
        let repl = try Repl()
        defer { repl.close() }
        repl.run("const apple = 1; let apricot; class Apex {}; var apse = 2; function apply2() {}")
        repl.run("const aperture = await Promise.resolve({ zeta: 1 })")
        #expect(try repl.complete("ap") == ReplSession.Completion(completions: ["apply2", "apse", "", "Apex", "aperture", "apple", "apricot"],
                                                                   completeOn: "ap"))
        #expect(try repl.complete("aperture.z") == ReplSession.Completion(completions: ["aperture.zeta"], completeOn: "aperture.z"))
        #expect(try repl.complete("typeo").completions == ["typeof"])
        let everything = try repl.complete("")
        #expect(everything.completeOn == "")
        #expect(everything.completions.contains("Hybrid") && everything.completions.contains("apricot") && everything.completions.contains("hasOwnProperty"))
        #expect(!everything.completions.contains { $0.hasPrefix("__hybrid") }, "the REPL's own globals are not offered")
        #expect(!everything.completions.contains("typeof"), "keywords only once something is typed, as in node")
    }

    @Test("completing runs nothing: getters, proxies, a global getter and replaced built-ins are never called")
    func noSideEffects() throws {
        let repl = try Repl()
        defer { repl.close() }
        repl.run("""
            let reads = 0;
            const lazy = { get inner() { reads++; return { deep: 1 } } };
            const trap = () => { reads++; };
            const trapped = new Proxy({ a: 1 }, { get: trap, has: trap, ownKeys: () => (reads++, []), getOwnPropertyDescriptor: trap, getPrototypeOf: () => (reads++, null) });
            const child = Object.create(trapped); child.own = 1;
            Object.defineProperty(globalThis, "sneaky", { get() { reads++; return { a: 1 } }, configurable: true });
            let broken = (() => { throw new Error("never initialized") })();
            """)
        // (Printing a function would call the replaced getOwnPropertyDescriptor: the input ends in a string.)
        repl.run("globalThis.eval = () => { reads++ }; Object.getOwnPropertyDescriptor = () => { reads++ }; 'replaced'")
        for line in ["lazy.inner.", "lazy.inner.de", "trapped.", "trapped.a", "sneaky.", "sneaky.a", "child.own.", "", "s", "bro", "broken."] {
            _ = try repl.complete(line)
        }
        #expect(try repl.complete("lazy.inner.").completions.isEmpty)
        #expect(try repl.complete("trapped.").completions.isEmpty)
        #expect(try repl.complete("lazy.").completions.contains("lazy.inner"), "a getter's name is listed; only its value is not read")
        #expect(try repl.complete("child.").completions == ["child.own"], "the own names, then nothing past the Proxy prototype")
        #expect(try repl.complete("sne").completions == ["sneaky"])
        #expect(try repl.complete("bro").completions.isEmpty, "a binding never initialized is not offered")
        #expect(repl.run("reads").text == "0")
    }

    @Test("after a leading dot, the REPL's commands")
    func commands() throws {
        let repl = try Repl()
        defer { repl.close() }
        #expect(try repl.complete(".") == ReplSession.Completion(completions: ["break", "clear", "editor", "exit", "help", "load", "save"], completeOn: ""))
        #expect(try repl.complete(" .e") == ReplSession.Completion(completions: ["editor", "exit"], completeOn: "e"))
        #expect(try repl.complete(".HE") == ReplSession.Completion(completions: ["help"], completeOn: "HE"))
    }

    @Test("while the JS thread is busy with an input, Tab gives up after its wait instead of keeping the prompt")
    func busyThread() throws {
        let repl = try Repl()
        defer { repl.close() }
        let box = HandedResult()
        #expect(repl.repl.submit("const end = Date.now() + 3000; while (Date.now() < end) {}; 'done'") { box.put($0) })
        #expect(repl.repl.complete("Math.", within: 0.2) == nil)
        #expect(box.take().text == "'done'")
        #expect(try repl.complete("Math.ma").completions == ["Math.max"])
    }

    /// One result from the JS thread, waited for.
    final class HandedResult: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: ReplSession.Result?

        func put(_ value: ReplSession.Result) {
            condition.lock()
            result = value
            condition.signal()
            condition.unlock()
        }

        func take() -> ReplSession.Result {
            condition.lock()
            defer { condition.unlock() }
            while result == nil { condition.wait() }
            return result!
        }
    }
}
