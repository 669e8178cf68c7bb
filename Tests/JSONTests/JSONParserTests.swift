import Foundation
import JSON
import Testing

@Suite("JSON parser and writer")
struct JSONParserTests {
    @Test("values parse into the matching cases, objects keeping key order")
    func parsesValues() throws {
        let value = try JSONParser.parse(#"{"b": [1, -2.5e3, true, false, null], "a": "x\u00e9\ud83d\ude00", "c": {}}"#)
        #expect(value["b"] == [1, -2500, true, false, nil])
        #expect(value["a"] == "xé😀")
        #expect(value.objectValue?.keys == ["b", "a", "c"])
    }

    @Test("writing then parsing gives the same value back", arguments: [
        #"{"a":1,"b":[true,null,"q\"uote\\back\nline\u0001"],"c":{"d":-0.5}}"#,
        #"[1e+300,12345678901234,0.1,-3]"#,
        #""plain""#,
    ])
    func roundTrips(text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(JSONWriter.write(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.write(value, options: .init(pretty: true))) == value)
    }

    @Test("integers are written without a fraction, NaN as null")
    func numbers() {
        #expect(JSONWriter.write([1, 2.5, .number(.nan), 1e21]) == "[1,2.5,null,1e+21]")
    }

    @Test("sorted keys give one canonical text whatever the insertion order")
    func canonicalForm() {
        let a: JSONValue = ["b": 1, "a": ["d": 2, "c": 3]]
        let b: JSONValue = ["a": ["c": 3, "d": 2], "b": 1]
        #expect(a == b)
        let options = JSONWriter.Options(sortedKeys: true)
        #expect(JSONWriter.write(a, options: options) == JSONWriter.write(b, options: options))
        #expect(JSONWriter.write(a, options: options) == #"{"a":{"c":3,"d":2},"b":1}"#)
    }

    @Test("bad text is refused with the line and column of the problem", arguments: [
        ("{\"a\": }", 1, 7),
        ("[1,\n 2,\n x]", 3, 2),
        ("\"unterminated", 1, 14),
        ("{\"a\": 1} trailing", 1, 10),
        ("\"\\ud800\"", 1, 8),
        ("01", 1, 2),
        // Past Double's range: it would read as infinity and be written back as null.
        ("[1, 1e400]", 1, 5),
        ("{\"t\": -2e308}", 1, 7),
    ])
    func refusesBadText(text: String, line: Int, column: Int) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == line && error.column == column
        }
    }

    /// Found by `make fuzz` (target json): `1.5e4567894` was read as +infinity, which the writer
    /// writes as null (as JSON.stringify does), so the value changed on its way through text; a
    /// sync op stamped so was accepted and then served to every device as `"timestamp": null`.
    @Test("a number beyond a double's range is refused where it starts, not read as infinity")
    func numberOutOfRange() throws {
        #expect {
            try JSONParser.parse("[0, -0, 1.5e4567894, 1e308]")
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == 1 && error.column == 9 && error.message.contains("out of range")
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("-1e400") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"timestamp": 2e308}"#) }
        // The largest double and the smallest still read; what is too small to tell from 0 is 0.
        #expect(try JSONParser.parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
        #expect(try JSONParser.parse("-5e-324") == .number(-.leastNonzeroMagnitude))
        #expect(try JSONParser.parse("1e-400") == 0)
    }

    /// Found by `make fuzz` (target js, through the conversion's text path): each key of an object
    /// was looked for among the keys before it, so an object of n keys took n²/2 string
    /// comparisons; 100,000 keys, 1.5 MB of text (a sync body, a patch file), took minutes.
    @Test("an object of many keys parses in linear time; a later duplicate still wins in the first one's place", .timeLimit(.minutes(1)))
    func manyKeys() throws {
        let count = 200_000
        let text = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":-1}"
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.count == count)
        #expect(object["k7"] == -1)
        #expect(object.members[7].key == "k7")
        #expect(object.members[count - 1].key == "k\(count - 1)")
        #expect(try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#).objectValue?.members.map(\.key) == ["a", "b"])
    }

    /// Found by `make fuzz` (target js, whose harness compares a converted value with itself after
    /// a trip through JS): two objects were compared by looking each key of one up in the other
    /// with a scan, n²/2 comparisons; two objects of 70,000 keys took two minutes.
    @Test("objects of many keys compare in linear time, whatever their order", .timeLimit(.minutes(1)))
    func manyKeysEquality() {
        let count = 50_000
        let forward = JSONObject((0..<count).map { (key: "k\($0)", value: JSONValue.number(Double($0))) })
        let backward = JSONObject((0..<count).reversed().map { (key: "k\($0)", value: JSONValue.number(Double($0))) })
        var changed = backward
        changed["k7"] = -1
        #expect(forward == backward)
        #expect(forward != changed)
        #expect(forward.hashValue == backward.hashValue)
    }

    @Test("nesting deeper than the maximum is refused rather than overflowing the stack")
    func depthLimit() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    @Test("base64 round-trips bytes of every length")
    func base64() {
        for length in 0..<10 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("hello".utf8)) == "aGVsbG8=")
        #expect(Base64.decode("not base64!") == nil)
    }

    @Test("base64 gives RFC 4648's test vectors and every byte as Foundation encodes it")
    func base64Vectors() {
        // RFC 4648 §10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(Base64.encode(Array(text.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(text.utf8))
        }
        for count in 254...256 {
            let bytes = (0..<count).map { UInt8(255 - $0 % 256) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
        }
    }
}

@Suite("JSON Pointer")
struct JSONPointerTests {
    @Test("tokens with ~ and / are escaped and found again")
    func escaping() {
        let pointer = JSONPointer.appending(JSONPointer.appending("", key: "a/b"), key: "m~n")
        #expect(pointer == "/a~1b/m~0n")
        #expect(JSONPointer.tokens(pointer) == ["a/b", "m~n"])
        let doc: JSONValue = ["a/b": ["m~n": [10, 20]]]
        #expect(JSONPointer.resolve(pointer, in: doc) == [10, 20])
        #expect(JSONPointer.resolve(JSONPointer.appending(pointer, index: 1), in: doc) == 20)
        #expect(JSONPointer.resolve("/missing", in: doc) == nil)
        #expect(JSONPointer.tokens("no-slash") == nil)
    }
}
