import JSON

/// Turns a draft 2020-12 schema into the node table the evaluator runs, checking it on the way.
///
/// Every subschema becomes one node, keyed by its location (a JSON Pointer into its document), so
/// a `$ref` and the walk that reaches the same place share a node, and a `$ref` back to a schema
/// still being compiled closes a cycle through an index rather than recursing forever.
///
/// The schema may sit inside a larger document, as an action's params sit inside its contract:
/// then its `$ref`s resolve against that document (`#/$defs/node` is the contract's), unless the
/// schema has an `$id` of its own, which makes it the root they resolve in. Only what the schema
/// reaches is compiled, so a validator holds the definitions its schema uses and no others.
/// References to other documents reach the bundled metaschemas or what the options' resolver lends.
struct SchemaCompiler {
    /// What the evaluator needs besides the nodes.
    struct Output {
        var nodes: [SchemaNode]
        /// For each `$dynamicRef` name (`SchemaKeywords.dynamicName`), the node of that
        /// `$dynamicAnchor` in each resource that declares it, by resource index.
        var dynamicTargets: [[Int: Int]]
    }

    static let typeNamesMessage = "expected one of " + SchemaTypeSet.names.map(\.name).joined(separator: ", ")

    /// Which vocabulary each keyword belongs to; a keyword whose vocabulary the dialect leaves out
    /// is an unknown keyword there.
    private static let vocabularyOfKeyword: [String: SchemaVocabularies] = [
        "type": .validation, "enum": .validation, "const": .validation, "minimum": .validation, "maximum": .validation,
        "exclusiveMinimum": .validation, "exclusiveMaximum": .validation, "multipleOf": .validation,
        "minLength": .validation, "maxLength": .validation, "pattern": .validation, "minItems": .validation,
        "maxItems": .validation, "uniqueItems": .validation, "minContains": .validation, "maxContains": .validation,
        "minProperties": .validation, "maxProperties": .validation, "required": .validation, "dependentRequired": .validation,
        "properties": .applicator, "patternProperties": .applicator, "additionalProperties": .applicator,
        "propertyNames": .applicator, "dependentSchemas": .applicator, "dependencies": .applicator, "prefixItems": .applicator, "items": .applicator,
        "contains": .applicator, "allOf": .applicator, "anyOf": .applicator, "oneOf": .applicator, "not": .applicator,
        "if": .applicator, "then": .applicator, "else": .applicator,
        "unevaluatedItems": .unevaluated, "unevaluatedProperties": .unevaluated,
    ]

    private let options: SchemaOptions
    private var index: SchemaResourceIndex
    private var nodes: [SchemaNode?] = []
    private var indexByLocation: [SchemaLocation: Int] = [:]
    private var dynamicNames: [String] = []
    /// `$dynamicRef`s whose target resources are compiled only once the whole schema is.
    private var dynamicNamesCompiled = 0
    private var dynamicTargets: [[Int: Int]] = []

    private init(options: SchemaOptions) {
        self.options = options
        index = SchemaResourceIndex(resolver: options.resolver)
    }

    /// The node table of the schema at `pointer` in `document`; that schema is node 0.
    static func compile(_ document: JSONValue, at pointer: String = "", options: SchemaOptions = SchemaOptions()) throws(SchemaError) -> Output {
        guard JSONPointer.resolve(pointer, in: document) != nil else {
            throw SchemaError(schemaPath: pointer, message: "expected a schema here, found nothing")
        }
        var compiler = SchemaCompiler(options: options)
        try compiler.index.add(document, uri: "")
        let start = SchemaLocation(document: 0, pointer: pointer)
        try compiler.index.scanUnreached(start)
        _ = try compiler.compile(at: start)
        try compiler.compileDynamicTargets()
        // Each compile(at:) that returns has filled its slot, so none is left empty here.
        let nodes = compiler.nodes.map { $0! }
        try checkForCyclesThatNeverDescend(nodes, dynamicTargets: compiler.dynamicTargets)
        return Output(nodes: nodes, dynamicTargets: compiler.dynamicTargets)
    }

    // MARK: Subschemas

    private mutating func compile(at location: SchemaLocation) throws(SchemaError) -> Int {
        if let index = indexByLocation[location] { return index }
        let here = index.describe(location)
        guard let schema = index.value(at: location) else {
            throw SchemaError(schemaPath: here, message: "expected a schema here, found nothing")
        }
        let nodeIndex = nodes.count
        nodes.append(nil)
        indexByLocation[location] = nodeIndex
        let scope = index.scope(of: location)

        var keywords = SchemaKeywords()
        switch schema {
        case .bool(true): break
        case .bool(false): keywords.rejectsEverything = true
        case .object(let object): try compileKeywords(of: object, at: location, scope: scope, into: &keywords)
        default: throw SchemaError(schemaPath: here, message: "expected a schema (an object or a boolean), got \(schema.typeName)")
        }
        keywords.seal()
        nodes[nodeIndex] = SchemaNode(location: here, resource: scope.resource, keywords: keywords)
        return nodeIndex
    }

    private mutating func compileKeywords(of object: JSONObject, at location: SchemaLocation, scope: SchemaResourceIndex.Scope,
                                          into keywords: inout SchemaKeywords) throws(SchemaError) {
        let formatAsserts = options.formatAssertion || scope.vocabularies.contains(.formatAssertion)
        for (key, value) in object.members {
            if let vocabulary = Self.vocabularyOfKeyword[key], !scope.vocabularies.contains(vocabulary) { continue }
            let at = location.appending(key: key)
            let here = index.describe(at)
            switch key {
            case "type":
                (keywords.types, keywords.typeLabel) = try Self.types(value, at: here)
            case "enum":
                guard case .array(let values) = value else { throw SchemaError(schemaPath: here, message: "expected an array, got \(value.typeName)") }
                keywords.enumValues = values.map(SchemaConstant.init)
            case "const":
                keywords.constValue = SchemaConstant(value)
            case "minimum": keywords.minimum = try Self.number(value, at: here)
            case "maximum": keywords.maximum = try Self.number(value, at: here)
            case "exclusiveMinimum": keywords.exclusiveMinimum = try Self.number(value, at: here)
            case "exclusiveMaximum": keywords.exclusiveMaximum = try Self.number(value, at: here)
            case "multipleOf":
                let divisor = try Self.number(value, at: here)
                guard divisor > 0 else { throw SchemaError(schemaPath: here, message: "expected a number greater than 0, got \(value)") }
                keywords.multipleOf = divisor
            case "minLength": keywords.minLength = try Self.count(value, at: here)
            case "maxLength": keywords.maxLength = try Self.count(value, at: here)
            case "minItems": keywords.minItems = try Self.count(value, at: here)
            case "maxItems": keywords.maxItems = try Self.count(value, at: here)
            case "minContains": keywords.minContains = try Self.count(value, at: here)
            case "maxContains": keywords.maxContains = try Self.count(value, at: here)
            case "minProperties": keywords.minProperties = try Self.count(value, at: here)
            case "maxProperties": keywords.maxProperties = try Self.count(value, at: here)
            case "uniqueItems":
                guard case .bool(let unique) = value else { throw SchemaError(schemaPath: here, message: "expected a boolean, got \(value.typeName)") }
                keywords.uniqueItems = unique
            case "pattern":
                keywords.pattern = try Self.pattern(value, at: here)
            case "format":
                let name = try Self.string(value, at: here)
                keywords.allowsBinary = name == "binary"
                if formatAsserts, scope.vocabularies.contains(.formatAnnotation) || scope.vocabularies.contains(.formatAssertion) {
                    keywords.format = SchemaFormat(rawValue: name)
                }
            case "properties":
                guard case .object(let properties) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas, got \(value.typeName)") }
                for (name, _) in properties.members {
                    keywords.properties.declare(name, node: try compile(at: at.appending(key: name)))
                }
            case "patternProperties":
                guard case .object(let properties) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas by pattern, got \(value.typeName)") }
                for (source, _) in properties.members {
                    let pattern = try Self.pattern(.string(source), at: index.describe(at.appending(key: source)))
                    keywords.patternProperties.append((pattern, try compile(at: at.appending(key: source))))
                }
            case "required":
                guard case .array(let names) = value else { throw SchemaError(schemaPath: here, message: "expected an array of property names, got \(value.typeName)") }
                for (i, name) in names.enumerated() {
                    let item = JSONPointer.appending(here, index: i)
                    guard case .string(let name) = name else { throw SchemaError(schemaPath: item, message: "expected a property name (a string), got \(name.typeName)") }
                    guard keywords.properties.require(name) else { throw SchemaError(schemaPath: item, message: "\(JSONValue.string(name)) is listed twice") }
                }
            case "dependentRequired":
                guard case .object(let dependencies) = value else { throw SchemaError(schemaPath: here, message: "expected an object of property name arrays, got \(value.typeName)") }
                for (name, list) in dependencies.members {
                    let entry = JSONPointer.appending(here, key: name)
                    guard case .array(let names) = list else { throw SchemaError(schemaPath: entry, message: "expected an array of property names, got \(list.typeName)") }
                    var required: [String] = []
                    for (i, item) in names.enumerated() {
                        guard case .string(let other) = item else { throw SchemaError(schemaPath: JSONPointer.appending(entry, index: i), message: "expected a property name (a string), got \(item.typeName)") }
                        guard !required.contains(other) else { throw SchemaError(schemaPath: JSONPointer.appending(entry, index: i), message: "\(JSONValue.string(other)) is listed twice") }
                        required.append(other)
                    }
                    keywords.dependentRequired.append((name, required))
                }
            case "dependentSchemas":
                guard case .object(let dependencies) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas, got \(value.typeName)") }
                for (name, _) in dependencies.members {
                    keywords.dependentSchemas.append((name, try compile(at: at.appending(key: name))))
                }
            case "dependencies":
                // Draft 7's keyword, which 2020-12 split in two; still read, as the draft allows.
                guard case .object(let dependencies) = value else { throw SchemaError(schemaPath: here, message: "expected an object, got \(value.typeName)") }
                for (name, dependency) in dependencies.members {
                    if case .array(let names) = dependency {
                        keywords.dependentRequired.append((name, names.compactMap(\.stringValue)))
                    } else {
                        keywords.dependentSchemas.append((name, try compile(at: at.appending(key: name))))
                    }
                }
            case "additionalProperties":
                keywords.additionalProperties = try compile(at: at)
                keywords.forbidsAdditionalProperties = value == .bool(false)
            case "unevaluatedProperties":
                keywords.unevaluatedProperties = try compile(at: at)
                keywords.forbidsUnevaluatedProperties = value == .bool(false)
            case "propertyNames": keywords.propertyNames = try compile(at: at)
            case "items":
                guard value.arrayValue == nil else {
                    throw SchemaError(schemaPath: here, message: "expected a schema; draft 2020-12 spells a tuple as prefixItems")
                }
                keywords.items = try compile(at: at)
                keywords.forbidsAdditionalItems = value == .bool(false)
            case "contains": keywords.contains = try compile(at: at)
            case "unevaluatedItems": keywords.unevaluatedItems = try compile(at: at)
            case "prefixItems": keywords.prefixItems = try schemaList(value, at: at)
            case "allOf": keywords.allOf = try schemaList(value, at: at)
            case "anyOf": keywords.anyOf = try schemaList(value, at: at)
            case "oneOf": keywords.oneOf = try schemaList(value, at: at)
            case "not": keywords.not = try compile(at: at)
            case "if": keywords.ifSchema = try compile(at: at)
            case "then": keywords.thenSchema = try compile(at: at)
            case "else": keywords.elseSchema = try compile(at: at)
            case "$ref":
                let target = try index.locate(SchemaURI(scope.base).resolving(try Self.string(value, at: here)), at: here)
                keywords.reference = try compile(at: target)
            case "$dynamicRef":
                let uri = SchemaURI(scope.base).resolving(try Self.string(value, at: here))
                let target = try index.locate(uri, at: here)
                keywords.dynamicReference = try compile(at: target)
                // Dynamic only when it lands on a $dynamicAnchor of the name it gives (the
                // "bookend"); otherwise it is a $ref.
                if let name = uri.fragment, !name.hasPrefix("/"), !name.isEmpty, index.declaresDynamicAnchor(name, at: target) {
                    keywords.dynamicName = dynamicNames.firstIndex(of: name) ?? {
                        dynamicNames.append(name)
                        return dynamicNames.count - 1
                    }()
                }
            case "$defs", "definitions":
                guard case .object(let definitions) = value else { throw SchemaError(schemaPath: here, message: "expected an object of schemas, got \(value.typeName)") }
                for (name, _) in definitions.members {
                    _ = try compile(at: at.appending(key: name))
                }
            case "$id", "$schema", "$comment", "$anchor", "$dynamicAnchor", "title", "description",
                 "contentEncoding", "contentMediaType":
                _ = try Self.string(value, at: here)
            case "$vocabulary":
                guard value.objectValue != nil else { throw SchemaError(schemaPath: here, message: "expected an object of vocabulary URIs, got \(value.typeName)") }
            case "deprecated", "readOnly", "writeOnly":
                guard value.boolValue != nil else { throw SchemaError(schemaPath: here, message: "expected a boolean, got \(value.typeName)") }
            case "examples":
                guard value.arrayValue != nil else { throw SchemaError(schemaPath: here, message: "expected an array, got \(value.typeName)") }
            case "contentSchema":
                // An annotation for the decoded content, which the bridge never decodes; still a schema.
                guard value.objectValue != nil || value.boolValue != nil else {
                    throw SchemaError(schemaPath: here, message: "expected a schema (an object or a boolean), got \(value.typeName)")
                }
            case "$recursiveRef", "$recursiveAnchor":
                throw SchemaError(schemaPath: here, message: "\(key) is draft 2019-09; draft 2020-12 spells it \(key == "$recursiveRef" ? "$dynamicRef" : "$dynamicAnchor")")
            default:
                // Unknown keywords (and annotations such as default) are ignored, as the draft says.
                break
            }
        }
    }

    private mutating func schemaList(_ value: JSONValue, at location: SchemaLocation) throws(SchemaError) -> [Int] {
        guard case .array(let schemas) = value, !schemas.isEmpty else {
            throw SchemaError(schemaPath: index.describe(location), message: "expected a non-empty array of schemas, got \(value.arrayValue != nil ? "an empty array" : value.typeName)")
        }
        var indexes: [Int] = []
        indexes.reserveCapacity(schemas.count)
        for i in schemas.indices {
            indexes.append(try compile(at: location.appending(index: i)))
        }
        return indexes
    }

    /// Compiles, for every `$dynamicRef` name, each resource's `$dynamicAnchor` of that name; the
    /// evaluator picks among them by dynamic scope. Compiling one may load documents that declare
    /// more, or meet more names, so it runs until nothing new turns up.
    private mutating func compileDynamicTargets() throws(SchemaError) {
        var compiledAnchors = Set<SchemaLocation>()
        var changed = true
        while changed {
            changed = false
            for (n, name) in dynamicNames.enumerated() {
                while dynamicTargets.count <= n { dynamicTargets.append([:]) }
                for anchor in index.dynamicAnchors[name] ?? [] where !compiledAnchors.contains(anchor.location) {
                    compiledAnchors.insert(anchor.location)
                    let node = try compile(at: anchor.location)
                    if dynamicTargets[n][anchor.resource] == nil { dynamicTargets[n][anchor.resource] = node }
                    changed = true
                }
            }
        }
    }

    // MARK: References

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

    /// Refuses a schema that can reach itself through keywords that apply to the same instance
    /// (`$ref`, `allOf`, `if`, ...) without moving into the instance (`{"$ref": "#"}`): validating
    /// with it would never end.
    static func checkForCyclesThatNeverDescend(_ nodes: [SchemaNode], dynamicTargets: [[Int: Int]]) throws(SchemaError) {
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: nodes.count)

        func visit(_ index: Int) throws(SchemaError) {
            marks[index] = .onPath
            var next = nodes[index].keywords.sameInstanceSubschemas
            if let name = nodes[index].keywords.dynamicName { next += dynamicTargets[name].values.sorted() }
            for next in next {
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

    private static func pattern(_ value: JSONValue, at location: String) throws(SchemaError) -> SchemaPattern {
        let source = try string(value, at: location)
        do {
            return try SchemaPattern(source)
        } catch {
            throw SchemaError(schemaPath: location, message: "expected an ECMA-262 regular expression: \(error)")
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
