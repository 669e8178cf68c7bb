import JSON

/// Turns a draft 2020-12 schema into the node table the evaluator runs, checking it on the way.
///
/// Every subschema becomes one node, keyed by its location (a JSON Pointer into the document), so
/// a `$ref` and the walk that reaches the same place share a node, and a `$ref` back to a schema
/// still being compiled closes a cycle through an index rather than recursing forever.
///
/// The schema may sit inside a larger document, as an action's params sit inside its contract:
/// then its `$ref`s resolve against that document (`#/$defs/node` is the contract's), unless the
/// schema has an `$id` of its own, which makes it the root they resolve in. Only what the schema
/// reaches is compiled, so a validator holds the definitions its schema uses and no others.
struct SchemaCompiler {
    /// Keywords of draft 2020-12 that this validator does not implement. Ignoring them, as it does
    /// unknown keywords, would quietly accept what the contract's author meant to refuse.
    static let unsupportedKeywords: Set<String> = [
        "multipleOf", "uniqueItems", "minProperties", "maxProperties", "patternProperties",
        "propertyNames", "dependentRequired", "dependentSchemas", "contains", "minContains",
        "maxContains", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties",
        "$dynamicRef", "$recursiveRef",
    ]

    static let typeNamesMessage = "expected one of " + SchemaTypeSet.names.map(\.name).joined(separator: ", ")

    /// What a `$ref`'s fragment is a JSON Pointer into: the document, or the compiled schema
    /// when it has an `$id`.
    private let root: JSONValue
    /// Where `root` sits in the document: node locations are pointers into the document.
    private let rootLocation: String
    /// Where the compiled schema sits in the document: the one place `$id` may stand.
    private let start: String
    /// The `$id` that names `root`, without its fragment: a `$ref` may spell local targets with it.
    private let baseURI: String
    private var nodes: [SchemaNode?] = []
    private var indexByLocation: [String: Int] = [:]

    private init(root: JSONValue, rootLocation: String, start: String, baseURI: String) {
        self.root = root
        self.rootLocation = rootLocation
        self.start = start
        self.baseURI = baseURI
    }

    /// The node table of the schema at `pointer` in `document`; that schema is node 0.
    static func compile(_ document: JSONValue, at pointer: String = "") throws(SchemaError) -> [SchemaNode] {
        guard let schema = JSONPointer.resolve(pointer, in: document) else {
            throw SchemaError(schemaPath: pointer, message: "expected a schema here, found nothing")
        }
        func id(_ value: JSONValue) -> String? {
            guard case .object(let object) = value, case .string(let id)? = object["$id"] else { return nil }
            return String(id.prefix { $0 != "#" })
        }
        var compiler = if let ownID = id(schema) {
            SchemaCompiler(root: schema, rootLocation: pointer, start: pointer, baseURI: ownID)
        } else {
            SchemaCompiler(root: document, rootLocation: "", start: pointer, baseURI: id(document) ?? "")
        }
        _ = try compiler.compile(schema, at: pointer)
        // Each compile(_:at:) that returns has filled its slot, so none is left empty here.
        let nodes = compiler.nodes.map { $0! }
        try checkForCyclesThatNeverDescend(nodes)
        return nodes
    }

    // MARK: Subschemas

    private mutating func compile(_ schema: JSONValue, at location: String) throws(SchemaError) -> Int {
        if let index = indexByLocation[location] { return index }
        let index = nodes.count
        nodes.append(nil)
        indexByLocation[location] = index

        var keywords = SchemaKeywords()
        switch schema {
        case .bool(true): break
        case .bool(false): keywords.rejectsEverything = true
        case .object(let object): try compileKeywords(of: object, at: location, into: &keywords)
        default: throw SchemaError(schemaPath: location, message: "expected a schema (an object or a boolean), got \(schema.typeName)")
        }
        keywords.seal()
        nodes[index] = SchemaNode(location: location, keywords: keywords)
        return index
    }

    private mutating func compileKeywords(of object: JSONObject, at location: String, into keywords: inout SchemaKeywords) throws(SchemaError) {
        for (key, value) in object.members {
            let here = JSONPointer.appending(location, key: key)
            switch key {
            case "type":
                (keywords.types, keywords.typeLabel) = try Self.types(value, at: here)
            case "enum":
                guard case .array(let values) = value else { throw SchemaError(schemaPath: here, message: "expected an array, got \(value.typeName)") }
                keywords.enumValues = values
            case "const":
                keywords.constValue = value
            case "minimum": keywords.minimum = try Self.number(value, at: here)
            case "maximum": keywords.maximum = try Self.number(value, at: here)
            case "exclusiveMinimum": keywords.exclusiveMinimum = try Self.number(value, at: here)
            case "exclusiveMaximum": keywords.exclusiveMaximum = try Self.number(value, at: here)
            case "minLength": keywords.minLength = try Self.count(value, at: here)
            case "maxLength": keywords.maxLength = try Self.count(value, at: here)
            case "minItems": keywords.minItems = try Self.count(value, at: here)
            case "maxItems": keywords.maxItems = try Self.count(value, at: here)
            case "pattern":
                let source = try Self.string(value, at: here)
                do {
                    keywords.pattern = try SchemaPattern(source)
                } catch {
                    throw SchemaError(schemaPath: here, message: "expected a regular expression: \(error)")
                }
            case "format":
                keywords.allowsBinary = try Self.string(value, at: here) == "binary"
            case "properties":
                guard case .object(let properties) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas, got \(value.typeName)") }
                for (name, subschema) in properties.members {
                    keywords.properties.declare(name, node: try compile(subschema, at: JSONPointer.appending(here, key: name)))
                }
            case "required":
                guard case .array(let names) = value else { throw SchemaError(schemaPath: here, message: "expected an array of property names, got \(value.typeName)") }
                for (i, name) in names.enumerated() {
                    let at = JSONPointer.appending(here, index: i)
                    guard case .string(let name) = name else { throw SchemaError(schemaPath: at, message: "expected a property name (a string), got \(name.typeName)") }
                    guard keywords.properties.require(name) else { throw SchemaError(schemaPath: at, message: "\(JSONValue.string(name)) is listed twice") }
                }
            case "additionalProperties":
                keywords.additionalProperties = try compile(value, at: here)
                keywords.forbidsAdditionalProperties = value == .bool(false)
            case "items":
                guard value.arrayValue == nil else {
                    throw SchemaError(schemaPath: here, message: "expected a schema; draft 2020-12 spells a tuple as prefixItems")
                }
                keywords.items = try compile(value, at: here)
                keywords.forbidsAdditionalItems = value == .bool(false)
            case "prefixItems": keywords.prefixItems = try schemaList(value, at: here)
            case "allOf": keywords.allOf = try schemaList(value, at: here)
            case "anyOf": keywords.anyOf = try schemaList(value, at: here)
            case "oneOf": keywords.oneOf = try schemaList(value, at: here)
            case "not": keywords.not = try compile(value, at: here)
            case "$ref":
                keywords.reference = try reference(try Self.string(value, at: here), at: here)
            case "$defs":
                guard case .object(let definitions) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas, got \(value.typeName)") }
                for (name, subschema) in definitions.members {
                    _ = try compile(subschema, at: JSONPointer.appending(here, key: name))
                }
            case "$id":
                _ = try Self.string(value, at: here)
                guard location == start else {
                    throw SchemaError(schemaPath: here, message: "embedded schema resources are not supported; give $id only at the root")
                }
            case "$schema", "$comment", "$anchor", "$dynamicAnchor", "title", "description":
                _ = try Self.string(value, at: here)
            case "examples":
                guard value.arrayValue != nil else { throw SchemaError(schemaPath: here, message: "expected an array, got \(value.typeName)") }
            default:
                if Self.unsupportedKeywords.contains(key) {
                    throw SchemaError(schemaPath: here, message: "\(key) is not supported by the bridge's schema validator")
                }
                // Unknown keywords (and annotations such as default, deprecated) are ignored, as
                // jsonschema ignores them.
            }
        }
    }

    private mutating func schemaList(_ value: JSONValue, at location: String) throws(SchemaError) -> [Int] {
        guard case .array(let schemas) = value, !schemas.isEmpty else {
            throw SchemaError(schemaPath: location, message: "expected a non-empty array of schemas, got \(value.arrayValue != nil ? "an empty array" : value.typeName)")
        }
        var indexes: [Int] = []
        indexes.reserveCapacity(schemas.count)
        for (i, schema) in schemas.enumerated() {
            indexes.append(try compile(schema, at: JSONPointer.appending(location, index: i)))
        }
        return indexes
    }

    // MARK: References

    /// Resolves a local `$ref` ("#", "#/$defs/name", any JSON Pointer fragment) to a node.
    private mutating func reference(_ uri: String, at location: String) throws(SchemaError) -> Int {
        guard let hash = uri.firstIndex(of: "#") else {
            throw SchemaError(schemaPath: location, message: "expected a local reference starting with #, got \(JSONValue.string(uri))")
        }
        let base = String(uri[..<hash])
        guard base.isEmpty || base == baseURI else {
            throw SchemaError(schemaPath: location, message: "only references within this schema are supported, got \(JSONValue.string(uri))")
        }
        guard let tokens = Self.pointerTokens(fragment: uri[uri.index(after: hash)...]) else {
            throw SchemaError(schemaPath: location, message: "expected a JSON Pointer after #, got \(JSONValue.string(uri)) (anchors are not supported)")
        }
        let pointer = tokens.reduce("") { JSONPointer.appending($0, key: $1) }
        guard let target = JSONPointer.resolve(pointer, in: root) else {
            throw SchemaError(schemaPath: location, message: "\(JSONValue.string(uri)) points at nothing in this schema")
        }
        return try compile(target, at: rootLocation + pointer)
    }

    /// The reference tokens of a `$ref`'s fragment (what follows `#`), percent-escapes decoded; nil
    /// when it is not a JSON Pointer.
    static func pointerTokens(fragment: Substring) -> [String]? {
        percentDecoded(fragment).flatMap(JSONPointer.tokens)
    }

    /// A URI fragment's percent-escapes decoded; nil when one is malformed or the result not UTF-8.
    static func percentDecoded(_ fragment: Substring) -> String? {
        guard fragment.contains("%") else { return String(fragment) }
        var bytes: [UInt8] = []
        var utf8 = fragment.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Refuses a schema that can reach itself through `$ref`, `allOf`, `anyOf`, `oneOf` or `not`
    /// without moving into the instance (`{"$ref": "#"}`): validating with it would never end.
    static func checkForCyclesThatNeverDescend(_ nodes: [SchemaNode]) throws(SchemaError) {
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: nodes.count)

        func visit(_ index: Int) throws(SchemaError) {
            marks[index] = .onPath
            for next in nodes[index].keywords.sameInstanceSubschemas {
                switch marks[next] {
                case .onPath:
                    throw SchemaError(schemaPath: nodes[index].location, message: "reference cycle that never descends into the instance (through \(nodes[next].location.isEmpty ? "#" : "#" + nodes[next].location))")
                case .unvisited:
                    try visit(next)
                case .done:
                    break
                }
            }
            marks[index] = .done
        }
        for index in nodes.indices where marks[index] == .unvisited {
            try visit(index)
        }
    }

    // MARK: Keyword values

    private static func types(_ value: JSONValue, at location: String) throws(SchemaError) -> (SchemaTypeSet, String) {
        switch value {
        case .string(let name):
            guard let type = SchemaTypeSet.named(name) else { throw SchemaError(schemaPath: location, message: typeNamesMessage) }
            return (type, name)
        case .array(let names) where !names.isEmpty:
            var set: SchemaTypeSet = []
            var labels: [String] = []
            for (i, name) in names.enumerated() {
                let at = JSONPointer.appending(location, index: i)
                guard case .string(let name) = name, let type = SchemaTypeSet.named(name) else {
                    throw SchemaError(schemaPath: at, message: typeNamesMessage)
                }
                guard !set.contains(type) else { throw SchemaError(schemaPath: at, message: "\(JSONValue.string(name)) is listed twice") }
                set.insert(type)
                labels.append(name)
            }
            let label = labels.count == 1 ? labels[0] : labels.dropLast().joined(separator: ", ") + " or " + labels[labels.count - 1]
            return (set, label)
        case .array:
            throw SchemaError(schemaPath: location, message: "expected at least one type name")
        default:
            throw SchemaError(schemaPath: location, message: typeNamesMessage)
        }
    }

    private static func number(_ value: JSONValue, at location: String) throws(SchemaError) -> Double {
        guard case .number(let n) = value, n.isFinite else {
            throw SchemaError(schemaPath: location, message: "expected a number, got \(value.typeName)")
        }
        return n
    }

    /// A non-negative integer such as minLength; 1.0 counts, as draft 2020-12 says.
    private static func count(_ value: JSONValue, at location: String) throws(SchemaError) -> Int {
        guard case .number(let n) = value, n >= 0, n.rounded(.towardZero) == n else {
            throw SchemaError(schemaPath: location, message: "expected a non-negative integer, got \(value)")
        }
        return n >= 9.0e18 ? Int.max : Int(n)
    }

    private static func string(_ value: JSONValue, at location: String) throws(SchemaError) -> String {
        guard case .string(let s) = value else {
            throw SchemaError(schemaPath: location, message: "expected a string, got \(value.typeName)")
        }
        return s
    }
}
