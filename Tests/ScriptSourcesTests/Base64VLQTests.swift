import ScriptSources
import Testing

@Suite("Base64 VLQ")
struct Base64VLQTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let text: String
        let values: [Int]
        var testDescription: String { "\(text) is \(values)" }
    }

    @Test("digits decode to the values the source map spec's encoder writes", arguments: [
        Vector(text: "A", values: [0]), Vector(text: "C", values: [1]), Vector(text: "D", values: [-1]),
        Vector(text: "E", values: [2]), Vector(text: "F", values: [-2]), Vector(text: "e", values: [15]),
        Vector(text: "gB", values: [16]), Vector(text: "hB", values: [-16]), Vector(text: "2H", values: [123]),
        Vector(text: "3H", values: [-123]), Vector(text: "w+B", values: [1000]), Vector(text: "x+B", values: [-1000]),
        Vector(text: "gggE", values: [65536]), Vector(text: "+/////D", values: [2_147_483_647]),
        Vector(text: "//////D", values: [-2_147_483_647]),
        Vector(text: "AAgBC", values: [0, 0, 16, 1]), Vector(text: "SAAS", values: [9, 0, 0, 9]),
    ])
    func decodesKnownVectors(_ vector: Vector) throws {
        #expect(try Base64VLQ.decode(vector.text) == vector.values)
    }

    @Test("text that is not Base64 VLQ is refused, saying why", arguments: [
        ("A!", "expected a Base64 digit, got '!'"),
        ("g", "ends in the middle"),
        ("gggggggB", "passes 32 bits"),
        ("A,A", "expected a Base64 digit, got ','"),
    ])
    func refusesBadDigits(text: String, why: String) {
        #expect {
            try Base64VLQ.decode(text)
        } throws: { error in
            (error as? SourceMapError)?.code == .mappings && "\(error)".contains(why)
        }
    }
}
