import Foundation
import Testing

/// `mock` in `hybrid test` files is node:test's: the same file, run under `hybrid test` and under
/// node 20 (with node:test's `test` and `mock` made globals), prints the same observations.
@Suite("hybrid test: mocks as node:test has them")
struct TestMockTests {
    static let folder = HybridProcess.fixture("suites/mocks")

    /// The lines a run printed that start with "»": what the file observed.
    static func observations(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("»") }
    }

    @Test("mock.fn, mock.method, getter/setter, restoreAll, reset and t.mock behave as node 20's")
    func sameAsNode() async throws {
        let ours = try await HybridProcess.run(["test", Self.folder + "/mock-api.test.js"])
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput.contains("# pass 6\n"), "\(ours)")
        let node = try await HybridProcess.tool(["node", "--import", "./node-globals.mjs", "mock-api.test.js"],
                                          directory: URL(fileURLWithPath: Self.folder))
        #expect(node.status == 0, "node: \(node.output)")
        let expected = Self.observations(node.output)
        #expect(expected.count > 40, "node printed: \(node.output)")
        let found = Self.observations(ours.standardOutput)
        for (index, line) in expected.enumerated() {
            #expect(index < found.count && found[index] == line, "line \(index + 1): node printed\n  \(line)\nhybrid test printed\n  \(index < found.count ? found[index] : "nothing")")
        }
        #expect(found.count == expected.count, "\(ours)")
    }

    @Test("a test that declares t but neither reads it nor calls it fails at its timeout, saying t is Jest's done there")
    func unusedParameterHint() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-mock-done-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("forgot.test.js")
        try "test(\"forgets done\", (t) => { expect(1).toBe(1); }, 200);\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await HybridProcess.run(["test", file.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("timed out after 200 ms (it declares a parameter but did not use it as t, so it is Jest's done: call it when finished)"), "\(result)")
    }

    @Test("js/types/hybrid.d.ts declares mock and t: a TypeScript test using them type-checks (tsc --strict) and passes")
    func typeScriptDeclarations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-mock-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let declarations = HybridProcess.repository.appendingPathComponent("js/types/hybrid.d.ts").path
        try """
            {"compilerOptions": {"target": "ES2022", "module": "ES2022", "moduleResolution": "node", "lib": ["ES2022"],
              "strict": true, "noEmit": true, "types": []}, "files": ["mocks.test.ts", "\(declarations)"]}
            """.write(to: folder.appendingPathComponent("tsconfig.json"), atomically: true, encoding: .utf8)
        try """
            const prices = { of(item: string): number { return item.length; }, get currency(): string { return "EUR"; } };

            test("mock.fn and its calls are typed", () => {
              const add = mock.fn((a: number, b: number) => a + b);
              const sum: number = add(1, 2);
              const first: [number, number] = add.mock.calls[0].arguments;
              add.mock.mockImplementationOnce((a, b) => a * b);
              expect([sum, first, add(2, 3), add.mock.callCount()]).toEqual([3, [1, 2], 6, 2]);
            });

            test("mock.method and mock.getter, restored by t.mock", (t) => {
              const of = t.mock.method(prices, "of", () => 0);
              t.mock.getter(prices, "currency", () => "USD");
              expect([prices.of("tea"), prices.currency, of.mock.calls[0].arguments]).toEqual([0, "USD", ["tea"]]);
            });

            test("restored afterwards; done still works", (done) => {
              expect([prices.of("tea"), prices.currency]).toEqual([3, "EUR"]);
              setTimeout(done, 1);
            });
            """.write(to: folder.appendingPathComponent("mocks.test.ts"), atomically: true, encoding: .utf8)
        let checked = try await HybridProcess.tool(["tsc", "-p", folder.path], mergingErrors: true)
        #expect(checked.status == 0, "tsc -p: \(checked.output)")
        let result = try await HybridProcess.run(["test", folder.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("# pass 3\n"), "\(result)")
    }

    @Test("a test's t.mock is restored after its afterEach hooks; t is also Jest's done; the global mock lasts the file")
    func perTestMocks() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-mocks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("context.test.js")
        try """
            const clock = { now() { return 1; } };
            const log = { lines: [], add(line) { this.lines.push(line); } };
            const kept = mock.method(log, "add");

            describe("with a mocked clock", () => {
              beforeEach((t) => { t.mock.method(clock, "now", () => 42); });
              afterEach(() => { expect(clock.now()).toBe(42); });

              test("the hook's mock is the test's", (t) => {
                expect(clock.now()).toBe(42);
                expect(t.name).toBe("the hook's mock is the test's");
              });

              test("async tests get t too", async (t) => {
                const later = t.mock.fn(async () => "soon");
                expect(await later()).toBe("soon");
                expect(later.mock.calls[0].result).toBeInstanceOf(Promise);
              });
            });

            test("restored once the test and its hooks ended", () => { expect(clock.now()).toBe(1); });

            test("a parameter that is never used as t is Jest's done", (done) => {
              setTimeout(() => { log.add("late"); done(); }, 20);
            });

            test("node's (t, done) form", (t, done) => {
              t.mock.fn()();
              setTimeout(done, 5);
            });

            test("the global mock is not restored between tests", () => {
              expect(kept.mock.calls.map((c) => c.arguments)).toEqual([["late"]]);
              expect(log.add).toBe(kept);
            });

            test("a mock's calls work with expect", () => {
              const handler = mock.fn();
              [1, 2].forEach(handler);
              expect(handler.mock.callCount()).toBe(2);
              expect(handler.mock.calls.map((c) => c.arguments)).toEqual([[1, 0, [1, 2]], [2, 1, [1, 2]]]);
            });
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try await HybridProcess.run(["test", file.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("# pass 7\n# fail 0\n"), "\(result)")
    }
}
