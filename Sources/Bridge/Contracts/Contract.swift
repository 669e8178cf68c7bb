import JSON

/// One target's contract, read from `services/<target>.json`: the single source of truth
/// for its actions' params, results and errors.
public struct Contract: Sendable {
    public struct Action: Sendable {
        public let name: String
        public let description: String
        public let params: JSONValue
        public let result: JSONValue
        public let errors: [BridgeErrorCode]
    }

    public let target: String
    public let version: String
    public let description: String
    public let actions: [String: Action]
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
        self.target = target
        self.version = version
        self.description = root["description"]?.stringValue ?? ""
        self.actions = parsed
        self.json = json
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
public struct ContractError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
