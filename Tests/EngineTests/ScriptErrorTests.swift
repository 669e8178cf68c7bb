import Engine
import JSON
import Testing

@Suite("script errors")
struct ScriptErrorTests {
    @Test("an error thrown while evaluating carries file:line:column and a stack")
    func evaluationErrorLocation() async throws {
        try await withEngine { (host) async throws in
            let source = """
                let total = 1;
                function inner() { return null.price; }
                function outer() { return inner(); }
                outer();
                """
            let error = try await host.exception(from: source, url: "/app/cart.js")
            #expect(error.name == "TypeError")
            #expect(error.sourceURL == "/app/cart.js")
            #expect(error.line == 2)
            #expect(error.location?.hasPrefix("/app/cart.js:2:") == true)
            #expect(error.stack.contains("at inner (/app/cart.js:2:"))
            #expect(error.stack.contains("at outer (/app/cart.js:3:"))
            #expect(error.description.hasPrefix("TypeError: "))
        }
    }

    @Test("a syntax error names the file and the line")
    func syntaxErrorLocation() async throws {
        try await withEngine { (host) async throws in
            let error = try await host.exception(from: "let a = 1;\nlet b = (;\n", url: "/app/broken.js")
            #expect(error.name == "SyntaxError")
            #expect(error.sourceURL == "/app/broken.js")
            #expect(error.line == 2)
        }
    }

    struct ThrownCase: Sendable, CustomTestStringConvertible {
        let statement: String
        let name: String
        let message: String
        let hasStack: Bool
        var testDescription: String { statement }
    }

    @Test("a JS exception becomes a ScriptError with its name and message", arguments: [
        ThrownCase(statement: #"throw new Error("plain")"#, name: "Error", message: "plain", hasStack: true),
        ThrownCase(statement: #"throw new TypeError("wrong type")"#, name: "TypeError", message: "wrong type", hasStack: true),
        ThrownCase(statement: #"throw new RangeError("out of range")"#, name: "RangeError", message: "out of range", hasStack: true),
        ThrownCase(statement: #"class CartError extends Error { constructor(m) { super(m); this.name = "CartError"; } }; throw new CartError("empty cart")"#,
                   name: "CartError", message: "empty cart", hasStack: true),
        ThrownCase(statement: #"undefinedFunction()"#, name: "ReferenceError", message: "Can't find variable: undefinedFunction", hasStack: true),
        ThrownCase(statement: #"throw "a string""#, name: "Error", message: "a string", hasStack: false),
        ThrownCase(statement: #"throw 42"#, name: "Error", message: "42", hasStack: false),
        // What is not an Error reads as node prints it uncaught: util.inspect, 5 levels deep.
        ThrownCase(statement: #"throw null"#, name: "Error", message: "null", hasStack: false),
        ThrownCase(statement: #"throw { code: 42 }"#, name: "Error", message: "{ code: 42 }", hasStack: false),
        ThrownCase(statement: #"throw [1, "two"]"#, name: "Error", message: "[ 1, 'two' ]", hasStack: false),
        ThrownCase(statement: #"throw { name: "CartError", message: "not an Error" }"#, name: "Error",
                   message: "{ name: 'CartError', message: 'not an Error' }", hasStack: false),
        ThrownCase(statement: #"throw Symbol("s")"#, name: "Error", message: "Symbol(s)", hasStack: false),
    ])
    func exceptionNameAndMessage(_ thrown: ThrownCase) async throws {
        try await withEngine { (host) async throws in
            let error = try await host.exception(from: thrown.statement)
            #expect(error.name == thrown.name)
            #expect(error.message == thrown.message)
            #expect(error.thrownNonError == !thrown.hasStack)
            #expect(error.stack.isEmpty == !thrown.hasStack)
        }
    }

    @Test("an error's own properties follow its stack, one a line, as node prints an uncaught error")
    func ownProperties() async throws {
        try await withEngine { (host) async throws in
            let error = try await host.exception(
                from: #"throw Object.assign(new Error("no tea"), { code: "E_STOCK", details: { sku: "tea", left: [0] } });"#,
                url: "/app/stock.js")
            #expect(error.properties == " {\n  code: 'E_STOCK',\n  details: { sku: 'tea', left: [ 0 ] }\n}")
            #expect(error.description.hasPrefix("Error: no tea\n    at /app/stock.js:1:"), "\(error.description)")
            #expect(error.description.hasSuffix("\n" + error.stack.split(separator: "\n").last! + error.properties), "\(error.description)")
            let plain = try await host.exception(from: #"throw new TypeError("plain")"#)
            #expect(plain.properties.isEmpty)
        }
    }

    @Test("JavaScriptCore's frames are rewritten in node's shape")
    func nodeStyleFrames() async throws {
        try await withEngine { (host) async throws in
            let error = try await host.exception(from: "function f() { [1].forEach(function g() { throw new Error('x'); }); }\nf();", url: "/app/frames.js")
            let frames = error.stack.split(separator: "\n").map(String.init)
            #expect(frames.first?.hasPrefix("    at g (/app/frames.js:1:") == true)
            #expect(frames.allSatisfy { $0.hasPrefix("    at ") })
            #expect(!error.stack.contains("@"))
        }
    }
}
