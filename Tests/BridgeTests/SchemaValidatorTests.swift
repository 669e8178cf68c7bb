import Bridge
import JSON
import Testing

@Suite("schema validator")
struct SchemaValidatorTests {
    /// A schema, an instance and the first violation expected, all written as JSON text.
    struct ViolationCase: Sendable, CustomTestStringConvertible {
        let schema: String
        let instance: String
        let path: String
        let message: String
        let testDescription: String

        init(_ testDescription: String, schema: String, instance: String, path: String, message: String) {
            self.testDescription = testDescription
            self.schema = schema
            self.instance = instance
            self.path = path
            self.message = message
        }
    }

    static let violations: [ViolationCase] = [
        .init("wrong type", schema: #"{"type": "integer"}"#, instance: #""7""#,
              path: "", message: "expected integer, got string"),
        .init("a fraction is not an integer", schema: #"{"type": "integer"}"#, instance: "1.5",
              path: "", message: "expected integer, got number"),
        .init("a boolean is not a number", schema: #"{"type": "number"}"#, instance: "true",
              path: "", message: "expected number, got boolean"),
        .init("several types are listed", schema: #"{"type": ["string", "integer", "null"]}"#, instance: "[]",
              path: "", message: "expected string, integer or null, got array"),
        .init("two types are listed", schema: #"{"type": ["object", "null"]}"#, instance: "1",
              path: "", message: "expected object or null, got number"),
        .init("missing required property", schema: #"{"required": ["title"]}"#, instance: "{}",
              path: "/title", message: #"missing required property "title""#),
        .init("nested path through arrays", schema: #"{"properties": {"records": {"items": {"properties": {"title": {"type": "string"}}}}}}"#,
              instance: #"{"records": [{"title": "a"}, {"title": "b"}, {"title": 3}]}"#,
              path: "/records/2/title", message: "expected string, got number"),
        .init("missing required property deep down", schema: #"{"properties": {"records": {"items": {"required": ["title"]}}}}"#,
              instance: #"{"records": [{"title": "a"}, {"done": true}]}"#,
              path: "/records/1/title", message: #"missing required property "title""#),
        .init("enum", schema: #"{"enum": ["a", "b"]}"#, instance: #""c""#,
              path: "", message: #"must be one of "a", "b""#),
        .init("enum of one value", schema: #"{"enum": [1]}"#, instance: "2", path: "", message: "must be 1"),
        .init("const", schema: #"{"const": {"kind": "x"}}"#, instance: #"{"kind": "y"}"#,
              path: "", message: #"must be {"kind":"x"}"#),
        .init("minimum", schema: #"{"minimum": 1}"#, instance: "0", path: "", message: "must be at least 1"),
        .init("maximum with a fraction", schema: #"{"maximum": 2.5}"#, instance: "3", path: "", message: "must be at most 2.5"),
        .init("exclusiveMinimum", schema: #"{"exclusiveMinimum": 0}"#, instance: "0", path: "", message: "must be greater than 0"),
        .init("exclusiveMaximum", schema: #"{"exclusiveMaximum": 10}"#, instance: "10", path: "", message: "must be less than 10"),
        .init("minLength counts code points", schema: #"{"minLength": 3}"#, instance: #""👍🏽""#,
              path: "", message: "must be at least 3 characters long"),
        .init("maxLength counts code points", schema: #"{"maxLength": 1}"#, instance: #""e\u0301""#,
              path: "", message: "must be at most 1 character long"),
        .init("pattern", schema: #"{"pattern": "^[a-z]+$"}"#, instance: #""Abc""#,
              path: "", message: "does not match pattern ^[a-z]+$"),
        .init("minItems", schema: #"{"minItems": 1}"#, instance: "[]", path: "", message: "must have at least 1 item"),
        .init("maxItems", schema: #"{"maxItems": 2}"#, instance: "[1, 2, 3]", path: "", message: "must have at most 2 items"),
        .init("a closed tuple names the extra item", schema: #"{"prefixItems": [{}, {}], "items": false}"#, instance: "[1, 2, 3]",
              path: "/2", message: "unexpected item; expected at most 2 items"),
        .init("prefixItems by position", schema: #"{"prefixItems": [{"type": "string"}, {"type": "number"}]}"#, instance: #"["a", "b"]"#,
              path: "/1", message: "expected number, got string"),
        .init("unexpected property", schema: #"{"properties": {"a": {}}, "additionalProperties": false}"#, instance: #"{"a": 1, "x": 2}"#,
              path: "/x", message: #"unexpected property "x"; the only property expected is a"#),
        .init("additionalProperties as a schema", schema: #"{"additionalProperties": {"type": "string"}}"#, instance: #"{"x": 2}"#,
              path: "/x", message: "expected string, got number"),
        .init("keys are escaped in the path", schema: #"{"properties": {"a/b~c": {"type": "string"}}}"#, instance: #"{"a/b~c": 1}"#,
              path: "/a~1b~0c", message: "expected string, got number"),
        .init("oneOf matching none", schema: #"{"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}"#, instance: "1.5",
              path: "", message: "must match exactly one of 3 schemas (matched 0)"),
        .init("oneOf matching two", schema: #"{"oneOf": [{"type": "integer"}, {"minimum": 0}, {"maximum": 0}]}"#, instance: "5",
              path: "", message: "must match exactly one of 3 schemas (matched 2)"),
        .init("anyOf matching none", schema: #"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#, instance: "[]",
              path: "", message: "must match at least one of 2 schemas"),
        .init("anyOf reports the one branch of the instance's type",
              schema: #"{"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}"#, instance: #""""#,
              path: "", message: "must be at least 1 character long"),
        .init("anyOf reports a deeper failure inside the branch of the instance's type",
              schema: #"{"anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "string"}]}"#, instance: #"{"n": "1"}"#,
              path: "/n", message: "expected integer, got string"),
        .init("allOf reports the failing branch", schema: #"{"allOf": [{"type": "string"}, {"minLength": 2}]}"#, instance: #""a""#,
              path: "", message: "must be at least 2 characters long"),
        .init("not", schema: #"{"not": {"const": "root"}}"#, instance: #""root""#,
              path: "", message: #"must not match the schema in "not""#),
        .init("false schema", schema: #"{"properties": {"a": false}}"#, instance: #"{"a": 1}"#,
              path: "/a", message: "no value is allowed here"),
        .init("unevaluatedProperties names the property no subschema evaluated",
              schema: #"{"allOf": [{"properties": {"a": true}}], "if": {"required": ["b"]}, "then": {"properties": {"b": true}}, "unevaluatedProperties": false}"#,
              instance: #"{"a": 1, "b": 2, "c": 3}"#, path: "/c", message: #"unexpected property "c" (unevaluatedProperties); expected one of a, b"#),
        .init("unevaluatedItems names the item", schema: #"{"prefixItems": [true], "unevaluatedItems": false}"#, instance: "[1, 2]",
              path: "/1", message: "unexpected item (unevaluatedItems)"),
        .init("oneOf reports the branch whose failure lies deepest",
              schema: #"{"oneOf": [{"type": "object", "required": ["kind"]}, {"type": "object", "properties": {"kind": {"const": "b"}, "n": {"properties": {"v": {"type": "integer"}}}}}]}"#,
              instance: #"{"n": {"v": "x"}}"#, path: "/n/v", message: "expected integer, got string"),
        .init("then applies when if matches", schema: #"{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}"#,
              instance: #"{"kind": "a"}"#, path: "/a", message: #"missing required property "a""#),
        .init("else applies when if does not match", schema: #"{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}"#,
              instance: #"{"kind": "z"}"#, path: "/b", message: #"missing required property "b""#),
        .init("contains", schema: #"{"contains": {"type": "integer"}, "minContains": 2}"#, instance: #"[1, "a"]"#,
              path: "", message: "must contain at least 2 items matching the schema in contains (found 1)"),
        .init("uniqueItems names the repeated item", schema: #"{"uniqueItems": true}"#, instance: #"[1, {"a": 1}, {"a": 1.0}]"#,
              path: "/2", message: "must be unique; equals item 1"),
        .init("dependentRequired", schema: #"{"dependentRequired": {"card": ["billing"]}}"#, instance: #"{"card": 1}"#,
              path: "/billing", message: #"missing property "billing", required when "card" is present"#),
        .init("propertyNames", schema: #"{"propertyNames": {"maxLength": 2}}"#, instance: #"{"abc": 1}"#,
              path: "/abc", message: #"property name "abc" is not allowed: (root): must be at most 2 characters long"#),
        .init("multipleOf", schema: #"{"multipleOf": 0.5}"#, instance: "1.25", path: "", message: "must be a multiple of 0.5"),
        .init("min/maxProperties", schema: #"{"maxProperties": 1}"#, instance: #"{"a": 1, "b": 2}"#, path: "", message: "must have at most 1 property"),
        .init("patternProperties", schema: #"{"patternProperties": {"^x-": {"type": "string"}}}"#, instance: #"{"x-a": 1}"#,
              path: "/x-a", message: "expected string, got number"),
        .init("pattern \\d is ASCII, as in ECMA-262", schema: #"{"pattern": "^\\d+$"}"#, instance: #""\u09ea""#,
              path: "", message: #"does not match pattern ^\d+$"#),
        .init("pattern \\w is ASCII, as in ECMA-262", schema: #"{"pattern": "^\\w+$"}"#, instance: #""é""#,
              path: "", message: #"does not match pattern ^\w+$"#),
        .init("$anchor", schema: ##"{"$ref": "#item", "$defs": {"i": {"$anchor": "item", "type": "integer"}}}"##, instance: #""a""#,
              path: "", message: "expected integer, got string"),
    ]

    @Test("a violation names its path and what was expected", arguments: violations)
    func reportsViolation(_ example: ViolationCase) throws {
        let validator = try SchemaValidator(schema: try JSONParser.parse(example.schema))
        let instance = try JSONParser.parse(example.instance)
        let violation = validator.firstViolation(of: instance)
        #expect(violation?.path == example.path)
        #expect(violation?.message == example.message)
        #expect(!validator.isValid(instance))
    }

    @Test("an unexpected property lists the names its object takes, and the one it is likely a typo of", arguments: [
        (#"{"properties": {"table": {}, "where": {}, "limit": {}}, "required": ["id"], "additionalProperties": false}"#, #"{"tabel": 1}"#,
         #"unexpected property "tabel"; did you mean "table"? expected one of table, where, limit"#, ["table", "where", "limit"], "table"),
        (#"{"properties": {"a": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}"#, #"{"y": 1}"#,
         #"unexpected property "y"; expected one of a, a name matching /^x-/"#, ["a"], nil),
        (#"{"properties": {"ab": {}, "a": {}}, "additionalProperties": false}"#, #"{"b": 1}"#,
         #"unexpected property "b"; expected one of ab, a"#, ["ab", "a"], nil),
        (#"{"additionalProperties": false}"#, #"{"y": 1}"#, #"unexpected property "y"; the object takes no properties"#, [], nil),
        (##"{"$ref": "#/$defs/base", "properties": {"online": {}}, "unevaluatedProperties": false, "$defs": {"base": {"properties": {"pushed": {}, "pulled": {}}}}}"##,
         #"{"pushd": 1}"#, #"unexpected property "pushd" (unevaluatedProperties); did you mean "pushed"? expected one of online, pushed, pulled"#,
         ["online", "pushed", "pulled"], "pushed"),
        (##"{"allOf": [{"$ref": "#/$defs/kids"}], "unevaluatedProperties": false, "$defs": {"kids": {"properties": {"kids": {}}}}}"##,
         #"{"kid": 1}"#, #"unexpected property "kid" (unevaluatedProperties); did you mean "kids"? the only property expected is kids"#, ["kids"], "kids"),
    ] as [(String, String, String, [String], String?)])
    func unexpectedPropertyNamesExpected(schema: String, instance: String, message: String, expected: [String], suggestion: String?) throws {
        let validator = try SchemaValidator(schema: try JSONParser.parse(schema))
        let violation = try #require(validator.firstViolation(of: try JSONParser.parse(instance)))
        #expect(violation.message == message)
        #expect(violation.expectedProperties == expected)
        #expect(violation.suggestion == suggestion)
    }

    @Test("a missing required property names its path")
    func missingRequiredPropertyNamesItsPath() throws {
        let validator = try SchemaValidator(schema: ["type": "object", "required": ["records"],
                                                     "properties": ["records": ["type": "array", "items": ["required": ["title"]]]]])
        let violation = validator.firstViolation(of: ["records": [["title": "milk"], ["title": "eggs"], ["done": true]]])
        #expect(violation?.path == "/records/2/title")
        #expect(violation?.message == #"missing required property "title""#)
        #expect(violation?.description == #"/records/2/title: missing required property "title""#)
    }

    @Test("valid instances have no violation", arguments: [
        (#"{"type": "integer"}"#, "1.0"),
        (#"{"type": "integer"}"#, "-0"),
        (#"{"type": "number", "maximum": 1e308}"#, "1e300"),
        (#"{"enum": [1, {"a": [true]}]}"#, #"{"a": [true]}"#),
        (#"{"const": 1}"#, "1.0"),
        (#"{"maxLength": 2}"#, #""👍🏽""#),
        (#"{"pattern": "^.{2}$"}"#, #""e\u0301""#),
        (#"{"pattern": "^(?=.)[\\--/]$"}"#, #"".""#),
        (#"{"required": ["a"], "properties": {"a": {"type": "null"}}, "additionalProperties": false}"#, #"{"a": null}"#),
        (#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#, #"["a", 1, 2]"#),
        (#"{"oneOf": [{"type": "string"}, {"type": "integer"}]}"#, "3"),
        ("true", "[1, {}]"),
        ("{}", "null"),
    ])
    func acceptsValidInstance(schema: String, instance: String) throws {
        let validator = try SchemaValidator(schema: try JSONParser.parse(schema))
        let value = try JSONParser.parse(instance)
        #expect(validator.firstViolation(of: value) == nil)
        #expect(validator.isValid(value))
    }

    @Test("property names match by code point, not canonical equivalence")
    func propertyNamesMatchByCodePoint() throws {
        let validator = try SchemaValidator(schema: ["properties": ["K": ["type": "integer"], "caf\u{E9}": ["type": "integer"]],
                                                     "additionalProperties": false])
        #expect(validator.isValid(["K": 1, "caf\u{E9}": 2]))
        // U+212A KELVIN SIGN and "e" + U+0301 are canonically equivalent to "K" and "é", which Swift's == honours.
        #expect(validator.firstViolation(of: ["\u{212A}": 1])?.message.hasPrefix("unexpected property \"\u{212A}\";") == true)
        #expect(validator.firstViolation(of: ["cafe\u{301}": 1])?.path == "/cafe\u{301}")
    }

    @Test("enum and const compare code points, not canonical equivalence")
    func constantsMatchByCodePoint() throws {
        let ascii = try SchemaValidator(schema: ["enum": ["K", "task"]])
        #expect(ascii.isValid("K") && ascii.isValid("task"))
        #expect(!ascii.isValid("\u{212A}"))
        let composed = try SchemaValidator(schema: ["const": "caf\u{E9}"])
        #expect(composed.isValid("caf\u{E9}"))
        #expect(composed.firstViolation(of: "cafe\u{301}")?.message == "must be \"caf\u{E9}\"")
    }

    @Test("format annotates by default and asserts when asked")
    func formatAssertion() throws {
        let schema: JSONValue = ["properties": ["day": ["type": "string", "format": "date"]]]
        #expect(try SchemaValidator(schema: schema).isValid(["day": "tomorrow"]))
        let asserting = try SchemaValidator(schema: schema, options: SchemaOptions(formatAssertion: true))
        #expect(asserting.isValid(["day": "2024-02-29"]))
        #expect(asserting.firstViolation(of: ["day": "2023-02-29"]) == SchemaViolation(path: "/day", message: #"expected a valid date, got "2023-02-29""#))
    }

    @Test("the 2020-12 metaschema is bundled: a $ref to it checks a schema")
    func metaschemaIsBundled() throws {
        let validator = try SchemaValidator(schema: ["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(validator.isValid(["type": "string", "minLength": 1]))
        #expect(!validator.isValid(["type": "text"]))
        #expect(!validator.isValid(["minLength": -1]))
    }

    @Test("pattern $ matches only at the very end, as in ECMA-262 (Python's re also allows a final newline)")
    func dollarIgnoresTrailingNewline() throws {
        let validator = try SchemaValidator(schema: ["pattern": "^[a-z]+$"])
        #expect(validator.isValid("abc"))
        #expect(!validator.isValid("abc\n"))
    }

    // MARK: First-failure order

    @Test("type is checked before every other keyword")
    func typeComesFirst() throws {
        let validator = try SchemaValidator(schema: ["enum": ["a"], "minLength": 5, "type": "string"])
        #expect(validator.firstViolation(of: 3)?.message == "expected string, got number")
    }

    @Test("object members are checked in the instance's order, then required")
    func membersInInstanceOrderThenRequired() throws {
        let validator = try SchemaValidator(schema: [
            "properties": ["a": ["type": "string"], "b": ["type": "string"]],
            "required": ["c"],
        ])
        #expect(validator.firstViolation(of: ["b": 1, "a": 2])?.path == "/b")
        #expect(validator.firstViolation(of: ["a": 2, "b": 1])?.path == "/a")
        #expect(validator.firstViolation(of: ["a": "x", "b": "y"])?.path == "/c")
    }

    @Test("required properties are reported in the order required lists them")
    func requiredInListedOrder() throws {
        let validator = try SchemaValidator(schema: ["required": ["z", "a", "m"]])
        #expect(validator.firstViolation(of: ["a": 1])?.path == "/z")
        #expect(validator.firstViolation(of: ["z": 1])?.path == "/a")
    }

    // MARK: Recursion

    static let tree: JSONValue = [
        "$defs": ["node": [
            "type": "object",
            "properties": ["value": ["type": "integer"], "children": ["type": "array", "items": ["$ref": "#/$defs/node"]]],
            "required": ["value"],
            "additionalProperties": false,
        ]],
        "$ref": "#/$defs/node",
    ]

    static func chain(depth: Int, leaf: JSONValue) -> JSONValue {
        var node: JSONValue = ["value": leaf]
        for value in 0..<depth { node = ["value": .number(Double(value)), "children": [node]] }
        return node
    }

    @Test("a recursive schema validates a deep tree through $ref")
    func recursiveTree() throws {
        let validator = try SchemaValidator(schema: Self.tree)
        #expect(validator.isValid(Self.chain(depth: 200, leaf: 1)))
        let violation = validator.firstViolation(of: Self.chain(depth: 3, leaf: "deep"))
        #expect(violation == SchemaViolation(path: "/children/0/children/0/children/0/value", message: "expected integer, got string"))
    }

    @Test("$ref reaches #, $defs and any JSON Pointer in the schema", arguments: [
        ##"{"type": ["integer", "array"], "items": {"$ref": "#"}}"##,
        ##"{"$defs": {"n": {"type": "integer"}}, "type": "array", "items": {"anyOf": [{"$ref": "#/$defs/n"}, {"$ref": "#"}]}}"##,
        ##"{"definitions": {"n": {"type": "integer"}}, "type": "array", "items": {"anyOf": [{"$ref": "#/definitions/n"}, {"$ref": "#"}]}}"##,
    ])
    func referenceForms(schema: String) throws {
        let validator = try SchemaValidator(schema: try JSONParser.parse(schema))
        #expect(validator.isValid(try JSONParser.parse("[1, [2, [3]]]")))
        #expect(validator.firstViolation(of: try JSONParser.parse(#"[1, [2, ["x"]]]"#)) != nil)
    }

    // MARK: Binary

    @Test("bytes pass a schema without type")
    func bytesWithoutType() throws {
        let validator = try SchemaValidator(schema: ["properties": ["blob": ["description": "anything"]]])
        #expect(validator.isValid(["blob": .bytes([1, 2, 3])]))
    }

    @Test("bytes pass type string only with format binary")
    func bytesNeedFormatBinary() throws {
        let binary = try SchemaValidator(schema: ["type": "string", "format": "binary"])
        #expect(binary.isValid(.bytes([0xFF])))
        #expect(binary.isValid("text still passes"))
        let nullableBinary = try SchemaValidator(schema: ["type": ["string", "null"], "format": "binary"])
        #expect(nullableBinary.isValid(.bytes([])))

        let text = try SchemaValidator(schema: ["properties": ["avatar": ["type": "string"]]])
        #expect(text.firstViolation(of: ["avatar": .bytes([1])]) == SchemaViolation(path: "/avatar", message: "expected string, got bytes"))
    }

    @Test("bytes fail every other type, and format binary alone does not make them a string", arguments: [
        #"{"type": "array"}"#, #"{"type": "object", "format": "binary"}"#, #"{"type": "string", "format": "byte"}"#,
    ])
    func bytesFailOtherTypes(schema: String) throws {
        let validator = try SchemaValidator(schema: try JSONParser.parse(schema))
        #expect(validator.firstViolation(of: .bytes([1]))?.message.hasSuffix("got bytes") == true)
    }

    @Test("bytes never equal an enum value or a const")
    func bytesAgainstEnum() throws {
        let validator = try SchemaValidator(schema: ["enum": ["AQI=", [1, 2]]])
        #expect(!validator.isValid(.bytes([1, 2])))
    }

    // MARK: Malformed schemas

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        let schema: String
        let schemaPath: String
        let message: String
        var testDescription: String { "\(schemaPath.isEmpty ? "(root)" : schemaPath) in \(schema)" }
    }

    static let malformed: [MalformedCase] = [
        .init(schema: #"{"properties": {"a": {"type": "text"}}}"#, schemaPath: "/properties/a/type",
              message: "expected one of array, boolean, integer, null, number, object, string"),
        .init(schema: #"{"type": ["string", 1]}"#, schemaPath: "/type/1",
              message: "expected one of array, boolean, integer, null, number, object, string"),
        .init(schema: #"{"type": ["string", "string"]}"#, schemaPath: "/type/1", message: #""string" is listed twice"#),
        .init(schema: #"{"type": []}"#, schemaPath: "/type", message: "expected at least one type name"),
        .init(schema: "[]", schemaPath: "", message: "expected a schema (an object or a boolean), got array"),
        .init(schema: #"{"items": 3}"#, schemaPath: "/items", message: "expected a schema (an object or a boolean), got number"),
        .init(schema: #"{"items": [{}]}"#, schemaPath: "/items", message: "expected a schema; draft 2020-12 spells a tuple as prefixItems"),
        .init(schema: #"{"minLength": -1}"#, schemaPath: "/minLength", message: "expected a non-negative integer, got -1"),
        .init(schema: #"{"maxItems": 1.5}"#, schemaPath: "/maxItems", message: "expected a non-negative integer, got 1.5"),
        .init(schema: #"{"minimum": "0"}"#, schemaPath: "/minimum", message: "expected a number, got string"),
        .init(schema: #"{"required": ["a", 1]}"#, schemaPath: "/required/1", message: "expected a property name (a string), got number"),
        .init(schema: #"{"required": ["a", "a"]}"#, schemaPath: "/required/1", message: #""a" is listed twice"#),
        .init(schema: #"{"enum": "a"}"#, schemaPath: "/enum", message: "expected an array, got string"),
        .init(schema: #"{"anyOf": []}"#, schemaPath: "/anyOf", message: "expected a non-empty array of schemas, got an empty array"),
        .init(schema: #"{"oneOf": [{}, 2]}"#, schemaPath: "/oneOf/1", message: "expected a schema (an object or a boolean), got number"),
        .init(schema: #"{"properties": []}"#, schemaPath: "/properties", message: "expected an object of schemas, got array"),
        .init(schema: ##"{"$defs": {"a": {"$ref": "#/$defs/missing"}}}"##, schemaPath: "/$defs/a/$ref",
              message: ##""#/$defs/missing" points at nothing in this schema"##),
        .init(schema: #"{"$ref": "other.json#/a"}"#, schemaPath: "/$ref",
              message: #"no schema is known as "other.json"; references may name this schema, its $ids and the 2020-12 metaschemas"#),
        .init(schema: ##"{"$ref": "#node"}"##, schemaPath: "/$ref", message: ##""#node" names no $anchor or $dynamicAnchor"##),
        .init(schema: ##"{"$ref": "#"}"##, schemaPath: "",
              message: "reference cycle that never descends into the instance (through #)"),
        .init(schema: ##"{"$defs": {"a": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/a"}]}}}"##, schemaPath: "/$defs/a/anyOf/1",
              message: "reference cycle that never descends into the instance (through #/$defs/a)"),
        .init(schema: #"{"properties": {"a": {"uniqueItems": 1}}}"#, schemaPath: "/properties/a/uniqueItems",
              message: "expected a boolean, got number"),
        .init(schema: #"{"$defs": {"a": {"$id": "https://example.com/a#x"}}}"#, schemaPath: "/$defs/a/$id",
              message: #"expected a URI without a fragment (name a subschema with $anchor), got "https://example.com/a#x""#),
        .init(schema: #"{"$anchor": "1a"}"#, schemaPath: "/$anchor",
              message: #"expected a name that starts with a letter or _ and holds only letters, digits, -, _ and ., got "1a""#),
        .init(schema: #"{"multipleOf": 0}"#, schemaPath: "/multipleOf", message: "expected a number greater than 0, got 0"),
        .init(schema: #"{"patternProperties": {"(": {}}}"#, schemaPath: "/patternProperties/(",
              message: "expected an ECMA-262 regular expression: expected ')'"),
        .init(schema: #"{"pattern": "\\a"}"#, schemaPath: "/pattern",
              message: #"expected an ECMA-262 regular expression: \a is not an ECMA-262 escape"#),
        .init(schema: #"{"pattern": "(?i)a"}"#, schemaPath: "/pattern",
              message: "expected an ECMA-262 regular expression: (?i is not an ECMA-262 group (inline flags, Python's (?P and (?# comments are not)"),
        .init(schema: ##"{"$dynamicRef": "#/$defs/missing"}"##, schemaPath: "/$dynamicRef",
              message: ##""#/$defs/missing" points at nothing in this schema"##),
        .init(schema: #"{"$schema": "https://json-schema.org/draft/2019-09/schema"}"#, schemaPath: "/$schema",
              message: #"no schema is known as "https://json-schema.org/draft/2019-09/schema"; references may name this schema, its $ids and the 2020-12 metaschemas"#),
        .init(schema: ##"{"$recursiveRef": "#"}"##, schemaPath: "/$recursiveRef",
              message: "$recursiveRef is draft 2019-09; draft 2020-12 spells it $dynamicRef"),
        .init(schema: #"{"title": 3}"#, schemaPath: "/title", message: "expected a string, got number"),
    ]

    @Test("a malformed schema is refused with its location in the schema", arguments: malformed)
    func refusesMalformedSchema(_ example: MalformedCase) throws {
        let schema = try JSONParser.parse(example.schema)
        #expect(throws: SchemaError(schemaPath: example.schemaPath, message: example.message)) {
            try SchemaValidator(schema: schema)
        }
    }

    @Test("a pattern that is not a regular expression is refused at compile time")
    func refusesBadPattern() throws {
        let error = #expect(throws: SchemaError.self) {
            try SchemaValidator(schema: ["properties": ["code": ["pattern": "([a-z]"]]])
        }
        #expect(error?.schemaPath == "/properties/code/pattern")
        #expect(error?.message.hasPrefix("expected an ECMA-262 regular expression") == true)
    }

    @Test("a schema error reads path: message")
    func schemaErrorDescription() {
        let error = SchemaError(schemaPath: "/properties/a/type", message: "expected one of array, boolean, integer, null, number, object, string")
        #expect(error.description == "/properties/a/type: expected one of array, boolean, integer, null, number, object, string")
    }

    // MARK: A schema inside a document

    /// A document that is not a schema itself, holding one at /actions/find/params, as a contract does.
    static let document = ##"""
        {"actions": {"find": {"params": {"type": "object", "properties": {"where": {"$ref": "#/$defs/filter"},
                                                                          "own": {"$ref": "#/actions/find/params/$defs/x"}},
                                         "$defs": {"x": {"type": "integer"}}}}},
         "$defs": {"filter": {"type": "object", "additionalProperties": {"anyOf": [{"type": "number"}, {"$ref": "#/$defs/filter"}]}},
                   "broken": {"type": "text"}}}
        """##

    @Test("a schema inside a document resolves # against the document, and failures keep the instance's path")
    func schemaInDocument() throws {
        let validator = try SchemaValidator(document: try JSONParser.parse(Self.document), at: "/actions/find/params")
        #expect(validator.isValid(["where": ["a": 1, "b": ["c": 2]], "own": 3]))
        #expect(validator.firstViolation(of: ["where": ["a": 1, "b": ["c": "x"]]])?.path == "/where/b/c")
        #expect(validator.firstViolation(of: ["own": "3"]) == SchemaViolation(path: "/own", message: "expected integer, got string"))
    }

    @Test("compiling a schema inside a document reaches only what it refers to, and errors name places in the document")
    func documentErrors() throws {
        let document = try JSONParser.parse(Self.document)
        // /$defs/broken is never reached from the params.
        #expect(throws: Never.self) { try SchemaValidator(document: document, at: "/actions/find/params") }
        #expect(throws: SchemaError(schemaPath: "/$defs/broken/type", message: "expected one of array, boolean, integer, null, number, object, string")) {
            try SchemaValidator(document: document, at: "/$defs/broken")
        }
        #expect(throws: SchemaError(schemaPath: "/actions/find/result", message: "expected a schema here, found nothing")) {
            try SchemaValidator(document: document, at: "/actions/find/result")
        }
    }

    @Test("a schema with an $id inside a document is the root its references resolve in")
    func schemaWithIDInDocument() throws {
        let document = try JSONParser.parse(##"""
            {"actions": {"a": {"params": {"$id": "a-params", "$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}}},
             "$defs": {"x": {"type": "number"}}}
            """##)
        let validator = try SchemaValidator(document: document, at: "/actions/a/params")
        #expect(validator.isValid("s") && !validator.isValid(1))
    }

    @Test("local references read as the validator reads them", arguments: [
        ("#/$defs/a%20b", "", ["$defs", "a b"] as [String]?),
        ("#", "", []),
        ("https://example.com/s#/$defs/x", "https://example.com/s", ["$defs", "x"]),
        ("other.json#/a", "", nil),
        ("#node", "", nil),
        ("/$defs/a", "", nil),
    ])
    func localReferenceTokens(reference: String, baseURI: String, tokens: [String]?) {
        #expect(SchemaValidator.localReferenceTokens(reference, baseURI: baseURI) == tokens)
    }

    @Test("unevaluatedProperties and unevaluatedItems read what was evaluated past the 64th member or item")
    func unevaluatedPastSixtyFour() throws {
        let members = (0..<130).map { (key: "p\($0)", value: JSONValue.number(Double($0))) }
        let properties = try SchemaValidator(schema: ["allOf": [["patternProperties": ["^p[0-9]$": true]]],
                                                      "if": ["required": ["p0"]], "then": ["patternProperties": ["^p[0-9]{2,}$": true]],
                                                      "unevaluatedProperties": false])
        #expect(properties.isValid(.object(JSONObject(members))))
        var extra = members
        extra.insert((key: "x", value: .null), at: 100)
        let violation = properties.firstViolation(of: .object(JSONObject(extra)))
        #expect(violation?.path == "/x")
        #expect(violation?.message == #"unexpected property "x" (unevaluatedProperties); expected one of a name matching /^p[0-9]$/, a name matching /^p[0-9]{2,}$/"#)

        let items = try SchemaValidator(schema: ["prefixItems": .array(Array(repeating: true, count: 70)), "contains": ["type": "string"],
                                                 "unevaluatedItems": false])
        var array: [JSONValue] = Array(repeating: 1, count: 70) + ["a", "b"]
        #expect(items.isValid(.array(array)))
        array.append(3)
        #expect(items.firstViolation(of: .array(array)) == SchemaViolation(path: "/72", message: "unexpected item (unevaluatedItems)"))
    }

    // MARK: Sharing

    @Test("one validator serves many tasks at once")
    func concurrentUse() async throws {
        let validator = try SchemaValidator(schema: ["type": "object", "properties": ["code": ["type": "string", "pattern": "^[A-Z]{3}$"]],
                                                     "required": ["code"]])
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask { validator.isValid(["code": i.isMultiple(of: 2) ? "ABC" : "abc"]) }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 32)
    }
}
