import Engine
import JSON

/// JS → native value conversion (`ScriptContext.jsonValue(from:)`, what every bridge call's params
/// go through), on values a small generator builds from the input: a JS expression of numbers,
/// strings (lone surrogates too), arrays long and short, sparse and cyclic ones, objects with
/// getters, `toJSON`, symbols and prototypes, typed arrays and their views, dates, proxies,
/// functions, BigInts, nesting around the depth limit. The expression runs in a real engine; its
/// value either converts or is refused with a ``ValueConversionError``, and a converted value
/// crosses back to JS (`jsValue(from:)`) and converts again to the same value.
enum JSValueFuzzTarget {
    static let target = FuzzTarget(name: "js", summary: "JS values from a generated expression → JSONValue (the bridge's conversion), round trip") { input throws(FuzzFinding) in
        try run(input)
    }

    /// One engine for the whole run; a script running away is stopped after 5 s.
    static let engine = JSEngine(options: EngineOptions(timeLimitSeconds: 5, output: { _, _ in }))

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        var generator = FuzzInput(input)
        let source = "(" + expression(&generator, depth: 0) + ")"
        try check(source)
    }

    /// Evaluates `source`, converts its value, and converts the result back and forth once more.
    static func check(_ source: String) throws(FuzzFinding) {
        let finding: String?
        do {
            finding = try engine.performAndWait { context -> String? in
                // The generator may build what JS refuses (a RangeError): not the conversion's doing.
                guard let value = try? context.evaluate(source, url: "fuzz.js") else { return nil }
                let converted: JSONValue
                do {
                    converted = try context.jsonValue(from: value)
                } catch {
                    return nil
                }
                let again: JSONValue
                do {
                    again = try context.jsonValue(from: context.jsValue(from: converted))
                } catch {
                    return "a converted value made into JS again does not convert: \(error)"
                }
                return again == converted ? nil : "a value changed on its way back through JS: \(converted) became \(again)"
            }
        } catch {
            finding = "the engine stopped: \(error)"
        }
        if let finding { throw FuzzFinding("js", finding + "\nsource: " + source) }
    }

    // MARK: The generator

    static let numbers = ["0", "-0", "1", "-1.5", "0.1", "1e308", "5e-324", "NaN", "Infinity", "-Infinity", "2**53 + 1", "123456789012345680000", "-2**31"]
    static let strings = [#"''"#, #"'a'"#, #"'\uD800'"#, #"'x\uDC00'"#, #"'\uD83D\uDE00'"#, #"'\u0000\n\t'"#, #"'😀 日本語 e\u0301'"#,
                          #"'"\\/'"#, "'a'.repeat(70000)", "'x'.repeat(2**24)", #"'\uDBFF'.repeat(3)"#]
    static let keys = ["a", "b", "'x y'", "0", "1", "4294967295", "length", "toJSON", "'__proto__'", "['😀']", "[Symbol('k')]", "''", #"'\uD800'"#, "'a/b~c'"]
    static let exotic = ["function f() {}", "() => 1", "Symbol('s')", "10n", "new Map([[1, 2]])", "new Set([1])", "/re/g", "new Error('e')",
                         "new String('ab')", "new Number(3)", "new Boolean(false)", "Promise.resolve(1)", "new Proxy({}, {})",
                         "new Proxy([1, 2], {})", "new Proxy({a: 1}, {ownKeys() { return ['a', 'b', 'a'] }, get(t, k) { return k }})",
                         "Object.create({inherited: 1})", "Object.create(null)", "new WeakMap()", "Math", "JSON", "Array.prototype"]
    static let binary = ["new Uint8Array([1, 2, 3])", "new Uint8Array(0)", "new Uint8Array(100).subarray(10, 20)", "new Uint8Array(new ArrayBuffer(8), 2, 3)",
                         "new ArrayBuffer(5)", "new ArrayBuffer(0)", "new Uint8ClampedArray([300, -1])", "new Int8Array([-1])", "new Int16Array(2)",
                         "new Float64Array([1.5])", "new DataView(new ArrayBuffer(4))", "new Uint8Array(2**24 + 1)", "new BigInt64Array(1)"]
    static let dates = ["new Date(0)", "new Date(NaN)", "new Date(8.64e15)", "new Date(-1)", "Object.assign(new Date(0), {extra: 1})"]
    static let lengths = [16, 17, 40, 1000, 1 << 20, 1 << 24, 4_294_967_295]

    /// What is left out of values built many times over (`small`: the elements of `Array.from`
    /// and `Object.fromEntries`, which would hold gigabytes), and of what a `toJSON` returns: a
    /// typed array of 16 MiB returned by `toJSON` inside an array of 16 or more is known slow,
    /// JavaScriptCore's `JSON.stringify` writing it out index by index for most of a minute
    /// before the conversion falls back to its walk (ARCHITECTURE.md, "Fuzzing", what is left).
    static let smallStrings = strings.filter { !$0.contains("2**24") }
    static let smallBinary = binary.filter { !$0.contains("2**24") }
    static let smallLengths = lengths.filter { $0 <= 1000 }

    static func expression(_ input: inout FuzzInput, depth: Int, small: Bool = false) -> String {
        let leaf = depth >= 6 || input.isExhausted
        var choice = input.pick(0...(leaf ? 5 : 19))
        // Many elements each (Array.from, Object.fromEntries) only near the root: nested, their
        // counts multiply into values that take long to build, whatever the conversion does.
        if depth > 1, choice == 10 || choice == 17 { choice = 6 }
        switch choice {
        case 0: return input.pick(numbers)
        case 1: return String(input.pick(-300...300))
        case 2: return input.pick(small ? smallStrings : strings)
        case 3: return input.pick(["true", "false", "null", "undefined"])
        case 4: return input.pick(small ? smallBinary : binary)
        case 5: return input.pick(dates)
        case 6, 7:
            let count = input.pick(0...5)
            return "[" + (0..<count).map { _ in expression(&input, depth: depth + 1, small: small) }.joined(separator: ", ") + "]"
        case 8, 9:
            let count = input.pick(0...5)
            return "({" + (0..<count).map { _ in input.pick(keys) + ": " + expression(&input, depth: depth + 1, small: small) }.joined(separator: ", ") + "})"
        case 10:
            return "Array.from({length: \(input.pick(16...40))}, (_, i) => " + expression(&input, depth: depth + 1, small: true) + ")"
        case 11:
            return input.pick(exotic)
        case 12:
            return input.pick(["({get a() { return ", "({b: 1, get a() { return "]) + expression(&input, depth: depth + 1, small: small) + " }})"
        case 13:
            return input.pick(["({toJSON() { return ", "Object.assign(Array.from({length: 16}), {toJSON() { return "]) + expression(&input, depth: depth + 1, small: true) + " }})"
        case 14:
            return input.pick([
                "(() => { const o = {a: 1}; o.self = o; return o })()",
                "(() => { const a = [1]; a.push(a); return a })()",
                "(() => { const a = Array(20).fill(0); a[3] = a; return a })()",
                "(() => { const a = {}; const b = {a}; a.b = [b, b]; return [a, b] })()",
                "({get a() { throw new Error('getter') }})",
                "Object.defineProperty({}, 'hidden', {value: 1, enumerable: false})",
            ])
        case 15:
            let levels = input.pick([10, 100, 254, 255, 256, 257, 300])
            let inner = expression(&input, depth: depth + 1, small: small)
            return input.flag()
                ? String(repeating: "[", count: levels) + inner + String(repeating: "]", count: levels)
                : String(repeating: "({a: ", count: levels) + inner + String(repeating: "})", count: levels)
        case 16:
            let length = input.pick(small ? smallLengths : lengths)
            return input.pick(["new Array(\(length))", "Object.assign([], {length: \(length)})", "Array(\(min(length, 1000))).fill(1)"])
        case 17:
            return "Object.fromEntries(Array.from({length: \(input.pick([1, 16, 100, 1000]))}, (_, i) => ['k' + i, " + expression(&input, depth: depth + 1, small: true) + "]))"
        case 18:
            // Its target small: a long string as target becomes a String object, whose characters the
            // walk enumerates as keys (known slow, ARCHITECTURE.md, "Fuzzing", what is left).
            return "Object.assign(" + expression(&input, depth: depth + 1, small: true) + ", " + expression(&input, depth: depth + 1, small: small) + ")"
        default:
            return "[" + expression(&input, depth: depth + 1, small: small) + "].map(x => x)"
        }
    }
}
