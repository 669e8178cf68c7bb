import Foundation
import HostTesting
import JSON
import Testing

@testable import Bridge

@Suite("contracts")
struct ContractTests {
    /// A contract whose actions share definitions, one of them recursive.
    static let outline = #"""
        {"target": "outline", "version": "1.0.0", "description": "Nested notes.",
         "actions": {
           "save": {"description": "", "errors": ["E_BAD_PARAMS"],
                    "params": {"type": "object", "required": ["root"], "additionalProperties": false,
                               "properties": {"root": {"$ref": "#/$defs/node"}}},
                    "result": {"$ref": "#/$defs/node"}},
           "count": {"description": "", "errors": [],
                     "params": {"type": "object", "properties": {"under": {"$ref": "#/$defs/title"}}},
                     "result": {"type": "integer"}}
         },
         "$defs": {
           "node": {"type": "object", "required": ["title"], "additionalProperties": false,
                    "properties": {"title": {"$ref": "#/$defs/title"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}},
           "title": {"type": "string", "minLength": 1}
         }}
        """#

    static func contract(_ text: String = outline) throws -> Contract {
        try Contract(text: text, file: "outline.json")
    }

    // MARK: $defs

    @Test("a params schema that refers to the contract's $defs accepts what they describe")
    func definitionsValidate() throws {
        let save = try Self.contract().validator(.params, of: "save")
        #expect(save.isValid(try JSONParser.parse(#"{"root": {"title": "a", "children": [{"title": "b", "children": []}]}}"#)))
        #expect(try Self.contract().validator(.params, of: "count").isValid(["under": "a"]))
    }

    @Test("a value that breaks a contract-level definition fails at its path in the params", arguments: [
        (#"{"root": {"title": 3}}"#, "/root/title", "expected string, got number"),
        (#"{"root": {"title": "a", "children": [{"title": "b"}, {"title": ""}]}}"#, "/root/children/1/title",
         "must be at least 1 character long"),
        (#"{"root": {"title": "a", "children": [{"title": "b", "color": "red"}]}}"#, "/root/children/0/color",
         "unexpected property \"color\"; expected one of title, children"),
        (#"{"root": {"children": []}}"#, "/root/title", "missing required property \"title\""),
    ])
    func definitionViolations(params: String, path: String, message: String) throws {
        let violation = try #require(try Self.contract().validator(.params, of: "save").firstViolation(of: try JSONParser.parse(params)))
        #expect(violation.path == path)
        #expect(violation.message == message)
    }

    @Test("a result schema that is only a reference validates through it")
    func resultThroughReference() throws {
        let result = try Self.contract().validator(.result, of: "save")
        #expect(result.isValid(["title": "a"]))
        #expect(result.firstViolation(of: ["title": "a", "children": [["title": 1]]])?.path == "/children/0/title")
    }

    @Test("a reference to a definition the contract lacks fails to compile, named at its place in the contract")
    func missingDefinition() throws {
        let text = Self.outline.replacingOccurrences(of: ##""under": {"$ref": "#/$defs/title"}"##, with: ##""under": {"$ref": "#/$defs/heading"}"##)
        #expect(throws: SchemaError(schemaPath: "/actions/count/params/properties/under/$ref",
                                    message: ##""#/$defs/heading" points at nothing in this schema"##)) {
            try Self.contract(text).validator(.params, of: "count")
        }
        #expect(throws: SchemaError.self) { try Self.contract(text).compileAll() }
        #expect(throws: Never.self) { try Self.contract().compileAll() }
    }

    @Test("a definition no action uses is still compiled by compileAll")
    func unusedDefinitionIsChecked() throws {
        let text = Self.outline.replacingOccurrences(of: #""title": {"type": "string", "minLength": 1}"#,
                                                     with: #""title": {"type": "string", "minLength": 1}, "spare": {"type": "text"}"#)
        #expect(throws: Never.self) { try Self.contract(text).validator(.params, of: "save") }
        #expect(throws: SchemaError.self) { try Self.contract(text).compileAll() }
    }

    @Test("an action schema with an $id of its own resolves its references within itself")
    func schemaWithItsOwnID() throws {
        let text = Self.outline.replacingOccurrences(
            of: #""result": {"type": "integer"}"#,
            with: ##""result": {"$id": "count-result", "$ref": "#/$defs/title", "$defs": {"title": {"type": "integer"}}}"##)
        let result = try Self.contract(text).validator(.result, of: "count")
        #expect(result.isValid(3))
        #expect(!result.isValid("a"))
    }

    @Test("a contract may use draft 2020-12's conditional, unevaluated and anchored keywords, and its errors keep their paths")
    func newKeywordsInContract() throws {
        let text = Self.outline.replacingOccurrences(
            of: #""result": {"type": "integer"}"#,
            with: ##""result": {"type": "object", "properties": {"n": {"$ref": "#count"}, "unit": {"pattern": "^\\p{Ll}+$"}}, "if": {"required": ["n"]}, "then": {"required": ["unit"]}, "unevaluatedProperties": false, "$defs": {"c": {"$anchor": "count", "type": "integer"}}}"##)
        let contract = try Self.contract(text)
        #expect(throws: Never.self) { try contract.compileAll() }
        let result = try contract.validator(.result, of: "count")
        #expect(result.isValid(["n": 1, "unit": "kg"]))
        #expect(result.firstViolation(of: ["n": 1]) == SchemaViolation(path: "/unit", message: #"missing required property "unit""#))
        let unexpected = result.firstViolation(of: ["unit": "kg", "x": 1])
        #expect(unexpected?.path == "/x")
        #expect(unexpected?.message == #"unexpected property "x" (unevaluatedProperties); expected one of n, unit"#)
        let broken = Self.outline.replacingOccurrences(of: #""result": {"type": "integer"}"#, with: #""result": {"if": {"pattern": "(?<=a)b"}}"#)
        let error = #expect(throws: SchemaError.self) { try Self.contract(broken).compileAll() }
        #expect(error?.schemaPath == "/actions/count/result/if/pattern")
    }

    @Test("\"format\": \"assert\" makes a contract's formats assert; anything but assert or annotate is refused")
    func formatAssertionInContract() throws {
        let text = Self.outline.replacingOccurrences(of: #""result": {"type": "integer"}"#, with: #""result": {"type": "string", "format": "date"}"#)
        #expect(try Self.contract(text).validator(.result, of: "count").isValid("soon"))
        let asserting = try Self.contract(text.replacingOccurrences(of: #""version": "1.0.0","#, with: #""version": "1.0.0", "format": "assert","#))
        #expect(asserting.formatAssertion)
        #expect(!(try asserting.validator(.result, of: "count").isValid("soon")))
        #expect(throws: ContractError(message: #"outline.json: format: expected "assert" (format keywords assert) or "annotate" (the default)"#)) {
            try Self.contract(text.replacingOccurrences(of: #""version": "1.0.0","#, with: #""version": "1.0.0", "format": true,"#))
        }
    }

    @Test("$defs that are not an object of schemas are refused, naming the field", arguments: [
        (#""$defs": [1]"#, "outline.json: $defs: expected an object of JSON Schemas"),
        (#""$defs": {"a": 1}"#, "outline.json: $defs.a: expected a JSON Schema"),
    ])
    func badDefinitions(definitions: String, message: String) {
        let text = #"{"target": "outline", "version": "1.0.0", "actions": {}, "#+definitions+"}"
        #expect(throws: ContractError(message: message)) { try Contract(text: text, file: "outline.json") }
    }

    @Test("describe keeps a contract's $defs beside its actions, where their references resolve")
    func describeKeepsDefinitions() throws {
        let contract = try Self.contract()
        let described = BridgeTarget.describe(["outline": contract], grants: .all)
        let target = try #require(described["targets"]?["outline"])
        #expect(target["$defs"] == contract.json["$defs"])
        let bridge = try Contract(text: String(contentsOfFile: Repository.path("services/bridge.json"), encoding: .utf8), file: "bridge.json")
        #expect(try bridge.validator(.result, of: "describe").firstViolation(of: described) == nil)
        // The described target stands for the contract: its actions' references resolve in it.
        #expect(try SchemaValidator(document: target, at: "/actions/save/params").isValid(["root": ["title": "a"]]))
    }

    // MARK: The client section

    static func withClient(_ client: String) -> String {
        outline.replacingOccurrences(of: #""description": "Nested notes.","#, with: #""description": "Nested notes.", "client": "# + client + ",")
    }

    @Test("a client section names a property, actions as methods and typed members")
    func client() throws {
        let contract = try Self.contract(Self.withClient(#"""
            {"property": "outline", "description": "Outlines as methods.", "methods": ["save"],
             "members": {"depth": {"description": "How deep.", "type": "(node: OutlineNode) => number"}}}
            """#))
        let client = try #require(contract.client)
        #expect(client.property == "outline" && client.description == "Outlines as methods.")
        #expect(client.methods == ["save"])
        #expect(client.members.map(\.name) == ["depth"] && client.members[0].type == "(node: OutlineNode) => number")
        #expect(try Self.contract().client == nil)
    }

    @Test("a client section that does not fit the contract is refused, naming the field", arguments: [
        (#"[]"#, "client: expected an object"),
        (#"{"methods": []}"#, "client.property: expected the client's name on Hybrid, a JavaScript identifier"),
        (#"{"property": "out-line"}"#, "client.property: expected the client's name on Hybrid, a JavaScript identifier"),
        (#"{"property": "call"}"#, "client.property: expected a name Hybrid does not already have (not HybridError, api, args, call, subscribe, targets)"),
        (#"{"property": "outline", "methods": ["save", "load"]}"#,
         #"client.methods[1]: expected an action of this contract (count, save), got "load""#),
        (#"{"property": "outline", "methods": ["save", "save"]}"#, #"client.methods[1]: expected each action once; "save" is listed twice"#),
        (#"{"property": "outline", "methods": "save"}"#, "client.methods: expected an array of action names"),
        (#"{"property": "outline", "methods": ["save"], "members": {"save": {"type": "() => void"}}}"#,
         #"client.members.save: expected a name no method has; "save" is one of client.methods"#),
        (#"{"property": "outline", "members": {"depth": {"description": "How deep."}}}"#,
         #"client.members.depth.type: expected the member's TypeScript type, such as "(units: number) => void""#),
        (#"{"property": "outline", "members": {"depth": {"type": " "}}}"#,
         #"client.members.depth.type: expected the member's TypeScript type, such as "(units: number) => void""#),
        (#"{"property": "outline", "actions": ["save"]}"#, "client.actions: expected nothing: a client has property, description, methods and members"),
    ])
    func badClient(client: String, message: String) {
        #expect(throws: ContractError(message: "outline.json: " + message)) { try Self.contract(Self.withClient(client)) }
    }

    @Test("two contracts whose clients take one name on Hybrid are a conflict")
    func clientConflict() throws {
        let first = try Self.contract(Self.withClient(#"{"property": "notes"}"#))
        let second = try Contract(text: Self.withClient(#"{"property": "notes"}"#).replacingOccurrences(of: #""target": "outline""#, with: #""target": "jots""#),
                                  file: "jots.json")
        #expect(Contract.clientConflicts(["outline": first, "jots": second])
            == [#"client "notes" is declared by services/jots.json and services/outline.json"#])
        #expect(Contract.clientConflicts(["outline": first, "plain": try Self.contract()]).isEmpty)
    }
}
