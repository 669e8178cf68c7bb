import Foundation
import JSON
import Patches
import Testing

@Suite("Swaps under load")
struct PatchLoadTests {
    @Test("a JS loop making bridge calls while 1,000 patches are applied: every call answered, none failed, none on a half-applied patch")
    func swapUnderLoad() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            _ = try await app.js("""
                globalThis.load = { answered: 0, failed: 0, wrong: 0, stop: false, versions: new Set() };
                globalThis.lanes = Promise.all(Array.from({ length: 16 }, async (_, lane) => {
                  let i = 0;
                  while (!load.stop) {
                    const greeting = app.greet("x");          // amended: "v<N> x" or "hello x"
                    const shout = app.lib.shout("x");          // must agree with greet: one patch at a time
                    if (shout !== greeting.toUpperCase()) load.wrong++;
                    load.versions.add(greeting);
                    try {
                      // echo answers inline, languageTag on a worker: the loop turns between them.
                      const answer = await Hybrid.call("bridge", "echo", { lane, i });
                      if (answer.lane === lane && answer.i === i) load.answered++; else load.wrong++;
                      const tag = await Hybrid.call("device", "languageTag");
                      if (typeof tag.value === "string") load.answered++; else load.wrong++;
                    } catch (error) {
                      load.failed++;
                    }
                    i++;
                  }
                }));
                0
                """)
            for version in 1...1000 {
                try await app.apply(try app.patch(version, ["lib.js": (.amend, "exports.greet = (n) => 'v\(version) ' + n;")]))
            }
            _ = try await app.js("load.stop = true")
            _ = try await app.jsAwait("lanes")
            let result = try await app.js("[load.answered, load.failed, load.wrong, load.versions.size, app.greet('x')]")
            #expect(result[1] == 0)
            #expect(result[2] == 0)
            #expect((result[0]?.intValue ?? 0) > 1000)
            #expect((result[3]?.intValue ?? 0) > 100, "the loop saw \(result[3] ?? .null) versions")
            #expect(result[4] == "v1000 x")
        }
    }
}
