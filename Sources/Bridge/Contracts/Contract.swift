import JSON

/// One target's contract, read from `services/<target>.json`: the single source of truth
/// for its actions' params, results and errors.
public struct Contract: Sendable {
    public struct Action: Sendable {
        public let name: String
        public let description: String
        /// JSON Schemas as written. Their `$ref`s resolve against the contract, not against
        /// themselves: compile them with ``Contract/validator(_:of:)``.
        public let params: JSONValue
        public let result: JSONValue
        public let errors: [BridgeErrorCode]
    }

    /// Which of an action's schemas: its params or its result.
    public enum Schema: String, Sendable {
        case params, result
    }

    public let target: String
    public let version: String
    public let description: String
    public let actions: [String: Action]
    /// Schemas every action's params and result may refer to as `{"$ref": "#/$defs/<name>"}`.
    public let definitions: [String: JSONValue]
    /// The contract as written, for `describe` and the TypeScript declarations.
    public let json: JSONValue

    /// Reads a contract; errors name `file`, the field and what was expected.
    public init(json: JSONValue, file: String) throws(ContractError) {
        func fail(_ field: String, _ expected: String) -> ContractError {
            ContractError(message: "\(file): \(field): expected \(expected)")
        }
        guard case .object(let root) = json else { throw fail("(root)", "an object") }
        guard let target = root["target"]?.stringValue, !target.isEmpty else { throw fail("target", "a non-empty string") }
        guard let version = root["version"]?.stringValue else { throw fail("version", "a version string such as \"1.0.0\"") }
        guard case .object(let actions)? = root["actions"] else { throw fail("actions", "an object of actions") }
        var parsed: [String: Action] = [:]
        for (name, value) in actions {
            let field = "actions.\(name)"
            guard case .object(let action) = value else { throw fail(field, "an object") }
            guard let params = action["params"], params.objectValue != nil || params.boolValue != nil else {
                throw fail("\(field).params", "a JSON Schema")
            }
            guard let result = action["result"], result.objectValue != nil || result.boolValue != nil else {
                throw fail("\(field).result", "a JSON Schema")
            }
            var errors: [BridgeErrorCode] = []
            for (index, code) in (action["errors"]?.arrayValue ?? []).enumerated() {
                guard let text = code.stringValue, let known = BridgeErrorCode(rawValue: text) else {
                    let codes = BridgeErrorCode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fail("\(field).errors[\(index)]", "one of \(codes)")
                }
                errors.append(known)
            }
            parsed[name] = Action(name: name, description: action["description"]?.stringValue ?? "",
                                  params: params, result: result, errors: errors)
        }
        var definitions: [String: JSONValue] = [:]
        if let value = root["$defs"] {
            guard case .object(let members) = value else { throw fail("$defs", "an object of JSON Schemas") }
            for (name, schema) in members {
                guard schema.objectValue != nil || schema.boolValue != nil else { throw fail("$defs.\(name)", "a JSON Schema") }
                definitions[name] = schema
            }
        }
        self.target = target
        self.version = version
        self.description = root["description"]?.stringValue ?? ""
        self.actions = parsed
        self.definitions = definitions
        self.json = json
    }

    /// Compiles `action`'s params or result schema. Its `$ref`s resolve against this contract, so
    /// `{"$ref": "#/$defs/node"}` is the contract's definition `node`; compile once and keep the
    /// validator, as the dispatcher does for each route.
    public func validator(_ schema: Schema, of action: String) throws(SchemaError) -> SchemaValidator {
        let pointer = JSONPointer.appending(JSONPointer.appending("/actions", key: action), key: schema.rawValue)
        return try SchemaValidator(document: json, at: pointer)
    }

    /// Compiles every schema of the contract, its definitions included (one no action refers to
    /// yet would otherwise be checked only once one does).
    public func compileAll() throws(SchemaError) {
        for name in definitions.keys.sorted() {
            _ = try SchemaValidator(document: json, at: JSONPointer.appending("/$defs", key: name))
        }
        for name in actions.keys.sorted() {
            _ = try validator(.params, of: name)
            _ = try validator(.result, of: name)
        }
    }

    /// Parses contract text.
    public init(text: String, file: String) throws(ContractError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw ContractError(message: "\(file): \(error)")
        }
        try self.init(json: json, file: file)
    }
}

/// A contract file that is not what the README's Contracts section describes, or disagrees with the registry.
public struct ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
