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

    /// The JS object the runtime installs for a target, `Hybrid.<property>` (such as `Hybrid.kv`,
    /// from `js/runtime/kv.js`): the contract declares it, so that the TypeScript declarations
    /// describe it without knowing any target by name.
    public struct Client: Sendable {
        /// One member of the client beside its action methods, typed in TypeScript.
        public struct Member: Sendable {
            public let name: String
            public let description: String
            /// A TypeScript type, such as `(units: number) => void`.
            public let type: String
        }

        /// The name of the client on `Hybrid`.
        public let property: String
        public let description: String
        /// Actions of the contract that the client has as methods, taking the params and options
        /// `Hybrid.call` takes and answering what it answers.
        public let methods: [String]
        /// Everything else the client has, in the contract's order.
        public let members: [Member]

        /// What `js/runtime/bridge.js` (and `api.js`) put on `Hybrid` itself: no client may take these names.
        public static let reservedProperties: Set<String> = ["call", "subscribe", "targets", "HybridError", "args", "api"]
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
    public let client: Client?
    /// `"format": "assert"` at the contract's top level: its schemas' `format` keywords assert
    /// (a `"format": "date"` that is no date fails) instead of only annotating, for every action.
    public let formatAssertion: Bool
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
        switch root["format"] {
        case nil, .string("annotate")?: formatAssertion = false
        case .string("assert")?: formatAssertion = true
        default: throw fail("format", "\"assert\" (format keywords assert) or \"annotate\" (the default)")
        }
        self.target = target
        self.version = version
        self.description = root["description"]?.stringValue ?? ""
        self.actions = parsed
        self.definitions = definitions
        if let client = root["client"] {
            self.client = try Self.client(client, actions: actions.keys, fail: fail)
        } else {
            self.client = nil
        }
        self.json = json
    }

    private static func client(_ value: JSONValue, actions: [String], fail: (String, String) -> ContractError) throws(ContractError) -> Client {
        guard case .object(let client) = value else { throw fail("client", "an object") }
        guard let property = client["property"]?.stringValue, isIdentifier(property) else {
            throw fail("client.property", "the client's name on Hybrid, a JavaScript identifier")
        }
        guard !Client.reservedProperties.contains(property) else {
            throw fail("client.property", "a name Hybrid does not already have (not \(Client.reservedProperties.sorted().joined(separator: ", ")))")
        }
        guard client["description"].map({ $0.stringValue != nil }) ?? true else { throw fail("client.description", "a string") }
        var methods: [String] = []
        if let value = client["methods"] {
            guard case .array(let names) = value else { throw fail("client.methods", "an array of action names") }
            for (index, name) in names.enumerated() {
                guard let name = name.stringValue, actions.contains(name) else {
                    throw fail("client.methods[\(index)]", "an action of this contract (\(actions.sorted().joined(separator: ", "))), got \(name)")
                }
                guard !methods.contains(name) else { throw fail("client.methods[\(index)]", "each action once; \(JSONValue.string(name)) is listed twice") }
                methods.append(name)
            }
        }
        var members: [Client.Member] = []
        if let value = client["members"] {
            guard case .object(let entries) = value else { throw fail("client.members", "an object of members by name") }
            for (name, member) in entries {
                let field = "client.members.\(name)"
                guard isIdentifier(name) else { throw fail(field, "a member named by a JavaScript identifier") }
                guard !methods.contains(name) else { throw fail(field, "a name no method has; \(JSONValue.string(name)) is one of client.methods") }
                guard case .string(let type)? = member["type"], !type.allSatisfy(\.isWhitespace) else {
                    throw fail("\(field).type", "the member's TypeScript type, such as \"(units: number) => void\"")
                }
                guard member["description"].map({ $0.stringValue != nil }) ?? true else { throw fail("\(field).description", "a string") }
                members.append(Client.Member(name: name, description: member["description"]?.stringValue ?? "", type: type))
            }
        }
        for (key, _) in client where !["property", "description", "methods", "members"].contains(key) {
            throw fail("client.\(key)", "nothing: a client has property, description, methods and members")
        }
        return Client(property: property, description: client["description"]?.stringValue ?? "", methods: methods, members: members)
    }

    /// Whether `name` can follow `Hybrid.` as it is (ASCII letters, digits, `_` and `$`).
    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// What no single contract shows: two contracts whose clients take one name on `Hybrid`.
    public static func clientConflicts(_ contracts: [String: Contract]) -> [String] {
        var owners: [String: [String]] = [:]
        for (target, contract) in contracts {
            if let client = contract.client { owners[client.property, default: []].append(target) }
        }
        return owners.keys.sorted().compactMap { property in
            let targets = owners[property]!.sorted()
            guard targets.count > 1 else { return nil }
            return "client \(JSONValue.string(property)) is declared by " + targets.map { "services/\($0).json" }.joined(separator: " and ")
        }
    }

    /// Compiles `action`'s params or result schema. Its `$ref`s resolve against this contract, so
    /// `{"$ref": "#/$defs/node"}` is the contract's definition `node`; compile once and keep the
    /// validator, as the dispatcher does for each route.
    public func validator(_ schema: Schema, of action: String) throws(SchemaError) -> SchemaValidator {
        let pointer = JSONPointer.appending(JSONPointer.appending("/actions", key: action), key: schema.rawValue)
        return try SchemaValidator(document: json, at: pointer, options: schemaOptions)
    }

    /// How this contract's schemas are compiled.
    public var schemaOptions: SchemaOptions { SchemaOptions(formatAssertion: formatAssertion) }

    /// Compiles every schema of the contract, its definitions included (one no action refers to
    /// yet would otherwise be checked only once one does).
    public func compileAll() throws(SchemaError) {
        for name in definitions.keys.sorted() {
            _ = try SchemaValidator(document: json, at: JSONPointer.appending("/$defs", key: name), options: schemaOptions)
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
