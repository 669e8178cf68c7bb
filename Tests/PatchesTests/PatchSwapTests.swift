import Foundation
import JSON
import Patches
import Testing

/// `amend` and `replace` in a running app.
@Suite("Swapping modules")
struct PatchSwapTests {
    @Test("amend is seen through references captured before the patch, at their next call")
    func amendThroughOldReferences() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            #expect(try await app.js("app.greet('ann')") == "hello ann")
            try await app.apply(try app.patch(1, ["lib.js": (.amend, "exports.greet = (name) => 'bonjour ' + name;")]))
            // main.js holds `lib` since before the patch; lib.shout calls exports.greet.
            #expect(try await app.js("app.greet('ann')") == "bonjour ann")
            #expect(try await app.js("app.lib.shout('bob')") == "BONJOUR BOB")
            #expect(try await app.js("[__hybridModules.patchVersion, __hybridModules.epoch]") == [1, 1])
            #expect(app.session!.patches.current.state == .applied)
        }
    }

    @Test("a newer patch replaces the one before; members it no longer amends go back to the shipped code")
    func patchesAreRelativeToTheShippedCode() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            try await app.apply(try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => 'one ' + n; exports.extra = () => 1;")]))
            try await app.apply(try app.patch(2, ["lib.js": (.amend, "exports.shout = (n) => 'two ' + n;")]))
            #expect(try await app.js("[app.greet('a'), app.lib.shout('b'), typeof app.lib.extra]") == ["hello a", "two b", "undefined"])
            try await app.rollback(reason: "test")
            #expect(try await app.js("[app.greet('a'), app.lib.shout('b')]") == ["hello a", "HELLO B"])
        }
    }

    @Test("replace hands state over from module.hot.dispose to module.hot.data")
    func replaceHandsStateOver() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            _ = try await app.js("app.counter().increment(); app.counter().increment()")
            let replacement = """
                let count = module.hot.data.count ?? 0;
                exports.increment = () => (count += 10);
                exports.read = () => count;
                exports.flavour = "patched";
                module.hot.accept();
                module.hot.dispose((data) => { data.count = count; });
                """
            try await app.apply(try app.patch(1, ["counter.js": (.replace, replacement)]))
            #expect(try await app.js("[app.counter().read(), app.counter().flavour, app.counter().increment()]") == [2, "patched", 12])
            // Back to the shipped code, with the state handed over again.
            try await app.rollback(reason: "test")
            #expect(try await app.js("[app.counter().flavour, app.counter().increment()]") == ["shipped", 13])
        }
    }

    @Test("async work in flight finishes on the code it started with")
    func inFlightWorkKeepsItsCode() async throws {
        let files = libraryApp.merging(["slow.js": """
            exports.run = async () => {
              const first = exports.step();
              await Hybrid.call("bridge", "echo", {});
              await new Promise((resolve) => setTimeout(resolve, 50));
              return [first, version];
            };
            const version = "shipped";
            exports.step = () => "step";
            """]) { $1 }
        try await withPatchApp(files) { app in
            try await app.start()
            let path = app.appDirectory + "/slow.js"
            _ = try await app.js("""
                globalThis.slowModule = __hybridModules.runMain('\(path)');
                globalThis.inFlight = globalThis.slowModule.run();
                true
                """)
            try await app.apply(try app.patch(1, ["slow.js": (.amend, "exports.run = async () => ['new', 'patched']; exports.step = () => 'new step';")]))
            #expect(try await app.jsAwait("globalThis.inFlight") == ["step", "shipped"])
            #expect(try await app.jsAwait("globalThis.slowModule.run()") == ["new", "patched"])
        }
    }
}
