import Engine
import JSON
import Testing

@Suite("console")
struct ConsoleTests {
    func output(of source: String) async throws -> CapturedOutput {
        try await withEngine { (host) async throws in
            host.start(source)
            #expect(await host.idle() == .idle)
            return host.output
        }
    }

    @Test("console.log prints objects readably, as node does", arguments: [
        ("console.log({a: 1, nested: {b: [1, 2], s: 'str'}})", "{ a: 1, nested: { b: [ 1, 2 ], s: 'str' } }\n"),
        ("console.log([1, 'two', null, undefined, true])", "[ 1, 'two', null, undefined, true ]\n"),
        ("console.log('total:', 3, {ok: true})", "total: 3 { ok: true }\n"),
        ("console.log('%s has %d items', 'cart', 3)", "cart has 3 items\n"),
        ("console.log(new Map([['k', 1]]), new Set([2]))", "Map(1) { 'k' => 1 } Set(1) { 2 }\n"),
        ("console.log(new Uint8Array([1, 2]))", "Uint8Array(2) [ 1, 2 ]\n"),
        ("console.log(-0, [ -0 ])", "-0 [ -0 ]\n"),
        ("console.info('info goes to stdout')", "info goes to stdout\n"),
    ])
    func readableObjects(source: String, expected: String) async throws {
        let output = try await output(of: source)
        #expect(output.standardOutput == expected)
        #expect(!output.standardOutput.contains("[object Object]"))
    }

    @Test("a cyclic object prints with a circular marker instead of throwing")
    func cycles() async throws {
        let output = try await output(of: "const cart = {id: 7}; cart.self = cart; console.log(cart);")
        #expect(output.standardOutput == "<ref *1> { id: 7, self: [Circular *1] }\n")
    }

    @Test("console.warn and console.error write to stderr; errors print their stack")
    func standardError() async throws {
        let output = try await output(of: "console.warn('careful');\nconsole.error(new Error('broken'));")
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.hasPrefix("careful\nError: broken\n    at "))
        #expect(output.standardError.contains("/virtual/main.js:2:"))
    }

    @Test("objects deeper than two levels are abbreviated, as node does")
    func depth() async throws {
        let output = try await output(of: "console.log({a: {b: {c: {d: 1}}}})")
        #expect(output.standardOutput == "{ a: { b: { c: [Object] } } }\n")
    }
}
