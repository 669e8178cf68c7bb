// ContractTools: what developers' tools derive from the service contracts, such as the TypeScript
// declarations `hybrid contracts dts` writes. Nothing here runs inside an app: the runtime reads
// contracts through Bridge alone. It must never name a particular target; what a target's JS
// client looks like comes from its contract's `client` section.

import Bridge
import JSON

/// The TypeScript declarations of the bridge, generated from the contracts: what
/// `hybrid contracts dts` prints into `js/types/hybrid.d.ts`, so that editors complete
/// `Hybrid.call(target, action, params)` and check its params and result.
///
/// Each action's params and result become `<Target><Action>Params` and `<Target><Action>Result`
/// (an interface when the schema is an object, else a type alias), and each of the contract's
/// `$defs` `<Target><Name>`; `HybridActions` maps target and action names to them, and the declared
/// `Hybrid` global types its methods through that map. A contract's `client` section becomes
/// `<Property>Client`, the type of `Hybrid.<property>`: its methods are actions, typed as
/// `Hybrid.call` types them, and its other members carry the TypeScript types the contract gives.
///
/// ```swift
/// let contract = try JSONParser.parse(text)   // one services/*.json
/// print(TypeScriptDeclarations.generate(contracts: [contract]), terminator: "")
/// ```
///
/// The text depends only on the contracts, not on the order they or their actions come in: targets
/// and actions are sorted by name, while properties and definitions keep the order their contract
/// lists them in. Schemas are read as the bridge's validator reads them: `$ref` resolves against
/// the contract (`#/$defs/name`), or within an action's schema that has an `$id` of its own; a
/// reference that resolves to nothing gives `unknown`.
public enum TypeScriptDeclarations {
    /// The whole `.d.ts` text for these contracts (each the parsed JSON of one `services/*.json`),
    /// sorted by target. A value that is not an object with a string `target` is left out; two
    /// contracts of one target give a file TypeScript refuses, as they would a registry.
    ///
    /// `declared` is TypeScript written by hand (`js/types/declared.d.ts.in`): what the runtime
    /// puts on `Hybrid` that no contract describes, such as `Hybrid.args`. It is copied in as it
    /// is, before `declare global`, so it can add members to `HybridAPI` (interfaces merge) and
    /// declare the types a client's members name; generated types never take its names.
    public static func generate(contracts: [JSONValue], declared: String = "") -> String {
        var generator = Generator()
        return generator.generate(contracts: contracts, declared: declared)
    }

    /// The TypeScript type for `schema`, for a contract of `target`; named types that `$ref`s
    /// introduce are not part of it. For tests of the schema mapping.
    static func typeText(for schema: JSONValue, target: String = "test") -> String {
        var generator = Generator()
        let scope = Generator.Scope(root: schema, names: ["": "Root"], typePrefix: pascalCase(target))
        return generator.translate(schema, in: scope).rendered()
    }

    // MARK: Names

    /// `find_all`, `find-all` and `findAll` all give `FindAll`; an empty or digit-led result is
    /// prefixed so that it stays an identifier.
    static func pascalCase(_ name: String) -> String {
        var result = ""
        var startsWord = true
        for character in name {
            guard character.isLetter || ("0"..."9").contains(character) || character == "$" else {
                startsWord = true
                continue
            }
            result += startsWord ? character.uppercased() : String(character)
            startsWord = false
        }
        if result.isEmpty || result.first!.isNumber { result = "_" + result }
        return result
    }

    /// The bridge's error codes as a union of string literals.
    static var errorCodeUnion: String {
        BridgeErrorCode.allCases.map { TypeScriptType.quoted($0.rawValue) }.joined(separator: " | ")
    }
}

// MARK: - Generation

extension TypeScriptDeclarations {
    /// One `export interface` or `export type`.
    struct Declaration {
        var name: String
        var documentation: [String]
        var type: TypeScriptType

        var lines: [String] {
            var lines = TypeScriptType.docComment(documentation, indent: "")
            if case .object(let shape) = type {
                lines.append("export interface " + name + " " + shape.rendered(depth: 0, compact: false))
            } else {
                lines.append("export type " + name + " = " + type.rendered() + ";")
            }
            return lines
        }
    }

    /// The state of one generation: names taken so far and the `$defs` already declared.
    struct Generator {
        /// Where a schema's `$ref`s resolve, and the declared names of places in it.
        struct Scope {
            /// The contract, or an action's schema that has an `$id`.
            var root: JSONValue
            /// Types already named for places in `root`, by JSON Pointer: an action's params
            /// (`/actions/save/params`), or the root of a schema with an `$id`.
            var names: [String: String]
            var typePrefix: String
            /// The root's `$id` without its fragment: a `$ref` may spell local targets with it.
            var baseURI = ""
            /// The JSON Pointers of the `$ref`s being inlined, to stop at a reference to itself.
            var inlining: [String] = []

            init(root: JSONValue, names: [String: String], typePrefix: String) {
                self.root = root
                self.names = names
                self.typePrefix = typePrefix
                if case .string(let id)? = root["$id"] { baseURI = String(id.prefix { $0 != "#" }) }
            }
        }

        private struct DefinitionKey: Hashable {
            var name: String
            var schema: JSONValue
        }

        private struct Action {
            var name: String
            var description: String
            var params: JSONValue
            var result: JSONValue
            var errors: [String]
            var paramsName = ""
            var resultName = ""
        }

        private struct Client {
            var property: String
            var description: String
            var methods: [String]
            var members: [(name: String, description: String, type: String)]
            var interfaceName = ""
        }

        private struct Target {
            var name: String
            var version: String
            var description: String
            var actions: [Action]
            /// The contract, where its schemas' `$ref`s resolve.
            var contract: JSONValue
            var definitions: [(name: String, schema: JSONValue)]
            var client: Client?
        }

        /// Names the fixed part of the file declares: `$defs` must not take them.
        private static let reservedNames: Set<String> = [
            "HybridErrorCode", "HybridError", "CallOptions", "SubscribeOptions", "Subscription", "JSONSchema",
            "ActionDescription", "TargetDescription", "HybridActions", "ParamsOf", "ResultOf", "CallArguments",
            "HybridAPI", "Hybrid", "Error", "Promise", "Record", "Uint8Array", "AbortSignal",
        ]

        private var takenNames = Generator.reservedNames
        private var definitionNames: [DefinitionKey: String] = [:]
        /// The current target's `$defs`, in the order they were first referred to.
        private var definitions: [Declaration] = []

        mutating func generate(contracts: [JSONValue], declared: String) -> String {
            var targets = contracts.compactMap(Self.target(of:)).sorted { $0.name < $1.name }
            // What the hand-written part declares is not for generated types to take.
            takenNames.formUnion(Self.declaredNames(in: declared))
            // Every action's and client's own names first, so that a `$defs` entry never takes one.
            for t in targets.indices {
                for a in targets[t].actions.indices {
                    let base = pascalCase(targets[t].name) + pascalCase(targets[t].actions[a].name)
                    targets[t].actions[a].paramsName = claim(base + "Params")
                    targets[t].actions[a].resultName = claim(base + "Result")
                }
            }
            for t in targets.indices {
                if let property = targets[t].client?.property {
                    targets[t].client!.interfaceName = claim(pascalCase(property) + "Client")
                }
            }

            var lines = Self.preamble
            for target in targets {
                let version = target.version.isEmpty ? "" : " " + target.version
                lines += ["", "// " + target.name + version + " (services/" + target.name + ".json)", ""]
                lines += declarations(of: target).map(\.lines).joined(separator: [""])
                if let client = target.client {
                    lines += [""] + Self.clientInterface(client, of: target)
                }
            }
            lines.append("")
            lines += Self.actionMap(of: targets)
            lines.append("")
            lines += Self.api + targets.flatMap(Self.clientProperty(of:)) + Self.apiEnd
            let declared = declared.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if declared.contains(where: { !$0.allSatisfy(\.isWhitespace) }) {
                lines += [""] + Array(declared.reversed().drop { $0.allSatisfy(\.isWhitespace) }.reversed())
            }
            lines += Self.end
            return lines.joined(separator: "\n") + "\n"
        }

        private static func target(of contract: JSONValue) -> Target? {
            guard let name = contract["target"]?.stringValue else { return nil }
            let actions = (contract["actions"]?.objectValue?.members ?? []).map { member in
                Action(name: member.key,
                       description: member.value["description"]?.stringValue ?? "",
                       params: member.value["params"] ?? true,
                       result: member.value["result"] ?? true,
                       errors: (member.value["errors"]?.arrayValue ?? []).compactMap(\.stringValue))
            }
            return Target(name: name,
                          version: contract["version"]?.stringValue ?? "",
                          description: contract["description"]?.stringValue ?? "",
                          actions: actions.sorted { $0.name < $1.name },
                          contract: contract,
                          definitions: (contract["$defs"]?.objectValue?.members ?? []).map { ($0.key, $0.value) },
                          client: client(of: contract, actions: Set(actions.map(\.name))))
        }

        /// The contract's `client` section as far as it makes sense; `hybrid contracts check`
        /// refuses the rest (Contract), so what is left out here never reaches a checked file.
        private static func client(of contract: JSONValue, actions: Set<String>) -> Client? {
            guard let section = contract["client"], let property = section["property"]?.stringValue else { return nil }
            let methods = (section["methods"]?.arrayValue ?? []).compactMap(\.stringValue).filter(actions.contains)
            let members = (section["members"]?.objectValue?.members ?? []).compactMap { member in
                member.value["type"]?.stringValue.map { (member.key, member.value["description"]?.stringValue ?? "", $0) }
            }
            return Client(property: property, description: section["description"]?.stringValue ?? "",
                          methods: methods, members: members)
        }

        /// The names `export interface`, `export type` (and the like) introduce in hand-written
        /// TypeScript, and those a `declare global` block declares at its top level (`class URL`,
        /// `var localStorage`): a generated type of a global's name would hide the global in the file.
        static func declaredNames(in text: String) -> Set<String> {
            var names: Set<String> = []
            var inGlobal = false
            for line in text.split(separator: "\n") {
                if line.hasPrefix("declare global") || line.hasPrefix("}") {
                    inGlobal = line.hasPrefix("declare global")
                    continue
                }
                var words = line.split(separator: " ").map(String.init)[...]
                let global = inGlobal && line.hasPrefix("  ") && !line.hasPrefix("   ")
                if words.first == "export" {
                    words.removeFirst()
                } else if !global {
                    continue
                }
                if words.first == "declare" { words.removeFirst() }
                guard let keyword = words.popFirst(), ["interface", "type", "class", "enum", "const", "function", "var", "let"].contains(keyword),
                      let word = words.first else { continue }
                let name = word.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                if !name.isEmpty { names.insert(String(name)) }
            }
            return names
        }

        /// The target's params and results, action by action, then its definitions: the
        /// contract's `$defs` in their order, then the `$defs` of action schemas with an `$id`, as
        /// they are first referred to.
        private mutating func declarations(of target: Target) -> [Declaration] {
            definitions = []
            var declarations: [Declaration] = []
            let prefix = pascalCase(target.name)
            var names: [String: String] = [:]
            for action in target.actions {
                let at = JSONPointer.appending("/actions", key: action.name)
                names[JSONPointer.appending(at, key: "params")] = action.paramsName
                names[JSONPointer.appending(at, key: "result")] = action.resultName
            }
            let contractScope = Scope(root: target.contract, names: names, typePrefix: prefix)
            for (name, schema) in target.definitions {
                _ = definition(name, schema, in: contractScope)
            }
            for action in target.actions {
                for (schema, name) in [(action.params, action.paramsName), (action.result, action.resultName)] {
                    let scope = schema["$id"]?.stringValue == nil ? contractScope : Scope(root: schema, names: ["": name], typePrefix: prefix)
                    declarations.append(Declaration(name: name, documentation: Self.documentation(of: schema),
                                                    type: translate(schema, in: scope)))
                }
            }
            return declarations + definitions
        }

        private mutating func claim(_ base: String) -> String {
            var name = base
            var suffix = 2
            while takenNames.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            takenNames.insert(name)
            return name
        }

        // MARK: Schemas

        /// The type of the values `schema` accepts. Keywords that constrain values beyond their
        /// type (`minimum`, `pattern`, ...) have no TypeScript counterpart and are left out, and so
        /// are those whose effect depends on the value (`if`/`then`/`else`, `dependentSchemas`,
        /// `unevaluatedProperties`, `$dynamicRef`, a `$ref` to an `$anchor`): the type is wider
        /// than the schema, never narrower.
        mutating func translate(_ schema: JSONValue, in scope: Scope) -> TypeScriptType {
            guard case .object(let object) = schema else {
                return schema == false ? .never : .unknown
            }
            // A schema's keywords all apply at once: their types intersect.
            var parts: [TypeScriptType] = []
            if case .string(let reference)? = object["$ref"] { parts.append(resolve(reference, in: scope)) }
            parts.append(ownType(of: object, in: scope))
            for keyword in ["anyOf", "oneOf"] {
                if case .array(let alternatives)? = object[keyword] {
                    parts.append(.union(alternatives.map { translate($0, in: scope) }))
                }
            }
            if case .array(let all)? = object["allOf"] {
                parts.append(.intersection(all.map { translate($0, in: scope) }))
            }
            return .intersection(parts)
        }

        /// What `const`, `enum` and `type` (or, without `type`, the object and array keywords) say.
        private mutating func ownType(of object: JSONObject, in scope: Scope) -> TypeScriptType {
            var types: [String]?
            switch object["type"] {
            case .string(let name)?: types = [name]
            case .array(let names)?: types = names.compactMap(\.stringValue)
            default: types = nil
            }
            if let value = object["const"] { return Self.literal(value) }
            if case .array(let values)? = object["enum"] {
                return .union(values.filter { value in types.map { Self.value(value, hasOneOf: $0) } ?? true }.map(Self.literal))
            }
            if let types { return .union(types.map { type(named: $0, of: object, in: scope) }) }
            if ["properties", "required", "additionalProperties"].contains(where: { object[$0] != nil }) {
                return type(named: "object", of: object, in: scope)
            }
            if object["items"] != nil || object["prefixItems"] != nil {
                return type(named: "array", of: object, in: scope)
            }
            return .unknown
        }

        private mutating func type(named name: String, of object: JSONObject, in scope: Scope) -> TypeScriptType {
            switch name {
            case "string": object["format"] == "binary" ? .named("Uint8Array") : .keyword("string")
            case "number", "integer": .keyword("number")
            case "boolean": .keyword("boolean")
            case "null": .keyword("null")
            case "array": arrayType(of: object, in: scope)
            case "object": objectType(of: object, in: scope)
            default: .unknown
            }
        }

        private mutating func arrayType(of object: JSONObject, in scope: Scope) -> TypeScriptType {
            let items = object["items"]
            guard case .array(let prefix)? = object["prefixItems"] else {
                if items == false { return .tuple([], rest: nil) }
                return .array(items.map { translate($0, in: scope) } ?? .unknown)
            }
            // prefixItems constrains the first elements without requiring them: minItems does.
            let minimum = object["minItems"]?.intValue ?? 0
            let elements = prefix.enumerated().map { index, schema in
                TypeScriptType.TupleElement(type: translate(schema, in: scope), isOptional: index >= minimum)
            }
            let closed = items == false || (object["maxItems"]?.intValue).map { $0 <= prefix.count } == true
            return .tuple(elements, rest: closed ? nil : items.map { translate($0, in: scope) } ?? .unknown)
        }

        private mutating func objectType(of object: JSONObject, in scope: Scope) -> TypeScriptType {
            let required = (object["required"]?.arrayValue ?? []).compactMap(\.stringValue)
            // Names a pattern admits have no TypeScript counterpart: with patternProperties any
            // other key may be there, whatever additionalProperties says of the rest.
            let additional: TypeScriptType? = switch object["additionalProperties"] {
            case _ where object["patternProperties"] != nil: .unknown
            case nil, .bool(true)?: nil
            case let schema?: translate(schema, in: scope)
            }
            var properties: [TypeScriptType.Property] = []
            for (name, schema) in object["properties"]?.objectValue?.members ?? [] {
                properties.append(.init(name: name, type: translate(schema, in: scope), isOptional: !required.contains(name),
                                        documentation: documentation(ofProperty: schema, in: scope)))
            }
            // A required name with no schema of its own must be present, whatever its value.
            for name in required where !properties.contains(where: { $0.name == name }) {
                properties.append(.init(name: name, type: additional ?? .unknown, isOptional: false, documentation: []))
            }
            let index: TypeScriptType? = switch additional {
            case nil: properties.isEmpty ? .unknown : nil
            case .keyword("never")?: properties.isEmpty ? .never : nil
            // TypeScript wants every property to fit the index signature, `undefined` of an
            // optional one included.
            case let type?: .union([type] + properties.map(\.type)
                + (properties.contains(where: \.isOptional) ? [.keyword("undefined")] : []))
            }
            return .object(.init(properties: properties, indexSignature: index))
        }

        /// A property's doc comment: its own, else, when it only refers to a definition, the
        /// definition's, so that `bucket: KvBucket` still says what a bucket is where it is used.
        private func documentation(ofProperty schema: JSONValue, in scope: Scope) -> [String] {
            let own = Self.documentation(of: schema)
            guard own.isEmpty, case .string(let reference)? = schema["$ref"],
                  let (_, target) = Self.referenced(reference, in: scope) else { return own }
            return Self.documentation(of: target)
        }

        // MARK: References

        /// The pointer a `$ref` designates in the scope's root, and the schema there.
        private static func referenced(_ reference: String, in scope: Scope) -> (pointer: String, schema: JSONValue)? {
            guard let tokens = SchemaValidator.localReferenceTokens(reference, baseURI: scope.baseURI) else { return nil }
            let pointer = tokens.reduce("") { JSONPointer.appending($0, key: $1) }
            return JSONPointer.resolve(pointer, in: scope.root).map { (pointer, $0) }
        }

        /// The type a `$ref` designates: a named type for `#/$defs/NAME` and for a place that
        /// already has a name (an action's params, a root with an `$id`), the designated schema's
        /// type inline for any other pointer.
        private mutating func resolve(_ reference: String, in scope: Scope) -> TypeScriptType {
            guard let (pointer, schema) = Self.referenced(reference, in: scope) else { return .unknown }
            if let name = scope.names[pointer] { return .named(name) }
            let tokens = JSONPointer.tokens(pointer) ?? []
            if tokens.count == 2, tokens[0] == "$defs" || tokens[0] == "definitions" {
                return .named(definition(tokens[1], schema, in: scope))
            }
            guard !scope.inlining.contains(pointer) else { return .unknown }
            var inner = scope
            inner.inlining.append(pointer)
            return translate(schema, in: inner)
        }

        /// The name of `$defs/name`'s type, declared with the target's other types on first use.
        /// The same definition in several actions' schemas is declared once.
        private mutating func definition(_ name: String, _ schema: JSONValue, in scope: Scope) -> String {
            let key = DefinitionKey(name: name, schema: schema)
            if let declared = definitionNames[key] { return declared }
            let declared = claim(scope.typePrefix + pascalCase(name))
            definitionNames[key] = declared
            // Its place is taken before its type is known, so that a reference to itself ends here.
            let index = definitions.count
            definitions.append(Declaration(name: declared, documentation: Self.documentation(of: schema), type: .unknown))
            definitions[index].type = translate(schema, in: scope)
            return declared
        }

        // MARK: Values

        /// A type that admits exactly `value`.
        private static func literal(_ value: JSONValue) -> TypeScriptType {
            switch value {
            case .null: .keyword("null")
            case .bool(let b): .literal(b ? "true" : "false")
            case .number(let n): .literal(numberText(n))
            case .string(let s): .literal(TypeScriptType.quoted(s))
            case .array(let elements): .tuple(elements.map { .init(type: literal($0), isOptional: false) }, rest: nil)
            case .object(let object):
                .object(.init(properties: object.members.map { .init(name: $0.key, type: literal($0.value), isOptional: false,
                                                                       documentation: []) },
                              indexSignature: object.isEmpty ? .never : nil))
            case .bytes: .named("Uint8Array")
            }
        }

        private static func numberText(_ n: Double) -> String {
            var text = ""
            JSONWriter.writeNumber(n, into: &text)
            return text
        }

        /// Whether `value` has one of the JSON Schema `types`, so that `enum` lists only what `type`
        /// lets through.
        private static func value(_ value: JSONValue, hasOneOf types: [String]) -> Bool {
            types.contains { type in
                switch (type, value) {
                case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
                     ("array", .array), ("object", .object), ("string", .bytes): true
                case ("integer", .number): value.intValue != nil
                default: false
                }
            }
        }

        /// A schema's doc comment: its description (else its title), default and deprecation.
        static func documentation(of schema: JSONValue) -> [String] {
            var lines: [String] = []
            if let text = schema["description"]?.stringValue ?? schema["title"]?.stringValue, !text.isEmpty {
                lines.append(text)
            }
            if let value = schema["default"] { lines.append("@default " + JSONWriter.write(value)) }
            if schema["deprecated"] == true { lines.append("@deprecated") }
            return lines
        }

        // MARK: The fixed part

        private static let preamble: [String] = [
            "// Generated by `hybrid contracts dts` from services/*.json. Do not edit.",
            "",
            "/** What `error.code` says when a call is rejected. */",
            "export type HybridErrorCode = " + errorCodeUnion + ";",
            "",
            "/** What a rejected call rejects with. */",
            "export interface HybridError extends Error {",
            "  name: \"HybridError\";",
            "  code: HybridErrorCode;",
            "  target: string;",
            "  action: string;",
            "  /** For E_BAD_PARAMS: a JSON Pointer to the offending field of the params, such as \"/records/2/title\". */",
            "  path?: string;",
            "  /** For E_FAILED: `reason` says why the service failed. */",
            "  details?: { reason?: string; [key: string]: unknown };",
            "}",
            "",
            "export interface CallOptions {",
            "  /** Rejects with E_TIMEOUT after this many milliseconds; the service sees a cancellation. */",
            "  timeoutMs?: number;",
            "  /** Aborting rejects the call with E_CANCELLED. */",
            "  signal?: AbortSignal;",
            "}",
            "",
            "export interface SubscribeOptions {",
            "  /** Receives the error that ends the subscription; without it, that error goes unhandled. */",
            "  onError?: (error: HybridError) => void;",
            "}",
            "",
            "export interface Subscription {",
            "  /** Ends the subscription and cancels its call in flight. */",
            "  stop(): void;",
            "}",
            "",
            "/** A JSON Schema (draft 2020-12), as a contract holds it. */",
            "export type JSONSchema = boolean | { [keyword: string]: unknown };",
            "",
            "/** One action of a target's contract, as `Hybrid.targets()` describes it. */",
            "export interface ActionDescription {",
            "  description: string;",
            "  params: JSONSchema;",
            "  result: JSONSchema;",
            "  errors: HybridErrorCode[];",
            "}",
            "",
            "/** One target's contract, as `Hybrid.targets()` describes it. */",
            "export interface TargetDescription {",
            "  version: string;",
            "  description: string;",
            "  /** Whether this app may call the target: app.json grants it. */",
            "  granted: boolean;",
            "  actions: { [action: string]: ActionDescription };",
            "  /** The contract's definitions, where its actions' `{\"$ref\": \"#/$defs/name\"}` resolve. */",
            "  $defs?: { [name: string]: JSONSchema };",
            "}",
        ]

        private static func actionMap(of targets: [Target]) -> [String] {
            guard !targets.isEmpty else { return ["export interface HybridActions {}"] }
            var lines = [
                "/** Every action of every target, by target and action name: what `Hybrid.call` is typed by. */",
                "export interface HybridActions {",
            ]
            for target in targets {
                lines += TypeScriptType.docComment(target.description.isEmpty ? [] : [target.description], indent: "  ")
                lines.append("  " + TypeScriptType.propertyKey(target.name) + ": {")
                for action in target.actions {
                    let errors = action.errors.isEmpty ? "never" : action.errors.map(TypeScriptType.quoted).joined(separator: " | ")
                    lines += TypeScriptType.docComment(action.description.isEmpty ? [] : [action.description], indent: "    ")
                    lines.append("    " + TypeScriptType.propertyKey(action.name) + ": { params: " + action.paramsName
                        + "; result: " + action.resultName + "; errors: " + errors + " };")
                }
                lines.append("  };")
            }
            lines.append("}")
            return lines
        }

        private static let api: [String] = [
            "/** The params of `target.action`. */",
            "export type ParamsOf<T extends keyof HybridActions, A extends keyof HybridActions[T]> =",
            "  HybridActions[T][A] extends { params: infer P } ? P : never;",
            "",
            "/** The result of `target.action`. */",
            "export type ResultOf<T extends keyof HybridActions, A extends keyof HybridActions[T]> =",
            "  HybridActions[T][A] extends { result: infer R } ? R : never;",
            "",
            "/** A call's arguments after target and action: params may be left out when they require nothing. */",
            "export type CallArguments<T extends keyof HybridActions, A extends keyof HybridActions[T]> =",
            "  {} extends ParamsOf<T, A>",
            "    ? [params?: ParamsOf<T, A>, options?: CallOptions]",
            "    : [params: ParamsOf<T, A>, options?: CallOptions];",
            "",
            "/** The global `Hybrid`: how JavaScript calls native services. */",
            "export interface HybridAPI {",
            "  /** Calls `target.action` with `params`: resolves with its result, or rejects with a HybridError. */",
            "  call<T extends keyof HybridActions, A extends keyof HybridActions[T]>(",
            "    target: T,",
            "    action: A,",
            "    ...args: CallArguments<T, A>",
            "  ): Promise<ResultOf<T, A>>;",
            "  /**",
            "   * Calls `target.action` again and again, handing each result to `onEvent`; when a result",
            "   * carries `seq` (or `cursor`), the next call asks for what came after it through `since`.",
            "   */",
            "  subscribe<T extends keyof HybridActions, A extends keyof HybridActions[T]>(",
            "    target: T,",
            "    action: A,",
            "    params: {} extends ParamsOf<T, A> ? ParamsOf<T, A> | undefined : ParamsOf<T, A>,",
            "    onEvent: (result: ResultOf<T, A>) => void | Promise<void>,",
            "    options?: SubscribeOptions",
            "  ): Subscription;",
            "  /** The contracts of every registered target, with whether this app may call it. */",
            "  targets(): Promise<Record<string, TargetDescription>>;",
        ]

        /// `<Property>Client`: the client's methods, one per action it names, then its members.
        private static func clientInterface(_ client: Client, of target: Target) -> [String] {
            let targetName = TypeScriptType.quoted(target.name)
            var lines = TypeScriptType.docComment(["`Hybrid." + client.property + "`, the JS client of the " + target.name
                                                   + " target (services/" + target.name + ".json)."], indent: "")
            lines.append("export interface " + client.interfaceName + " {")
            for method in client.methods {
                let action = TypeScriptType.quoted(method)
                let description = target.actions.first { $0.name == method }?.description ?? ""
                lines += TypeScriptType.docComment(description.isEmpty ? [] : [description], indent: "  ")
                lines.append("  " + TypeScriptType.propertyKey(method) + "(...args: CallArguments<" + targetName + ", " + action
                    + ">): Promise<ResultOf<" + targetName + ", " + action + ">>;")
            }
            for member in client.members {
                lines += TypeScriptType.docComment(member.description.isEmpty ? [] : [member.description], indent: "  ")
                lines.append("  readonly " + TypeScriptType.propertyKey(member.name) + ": " + member.type + ";")
            }
            lines.append("}")
            return lines
        }

        /// `readonly <property>: <Property>Client;` in `HybridAPI`, for a target with a client.
        private static func clientProperty(of target: Target) -> [String] {
            guard let client = target.client else { return [] }
            return TypeScriptType.docComment(client.description.isEmpty ? [] : [client.description], indent: "  ")
                + ["  readonly " + TypeScriptType.propertyKey(client.property) + ": " + client.interfaceName + ";"]
        }

        private static let apiEnd: [String] = [
            "  /** The class of the errors calls reject with, for `instanceof`. */",
            "  readonly HybridError: new (fields: {",
            "    code: HybridErrorCode;",
            "    message: string;",
            "    target: string;",
            "    action: string;",
            "    path?: string;",
            "    details?: { reason?: string; [key: string]: unknown };",
            "  }) => HybridError;",
            "}",
        ]

        private static let end: [String] = [
            "",
            "declare global {",
            "  const Hybrid: HybridAPI;",
            "}",
            "",
            "export {};",
        ]
    }
}
