import JSON

/// Every document a compilation reads, and what their identifiers name: schema resources (`$id`),
/// anchors (`$anchor`, `$dynamicAnchor`), and the base URI and dialect of each subschema.
///
/// A document is scanned once, when it is added, along the keywords that hold subschemas only: an
/// `$id` inside an `enum` value or an unknown keyword names nothing, as the draft says. Documents
/// other than the schema's own come from the bundled metaschemas or the caller's resolver, never
/// from the network.
struct SchemaResourceIndex {
    struct Document {
        let root: JSONValue
        /// The URI it was asked for by ("" for the schema's own document when it has no `$id`).
        let uri: String
    }

    /// What a scanned subschema's references resolve against and which keywords it knows.
    struct Scope {
        let base: String
        let vocabularies: SchemaVocabularies
        /// Index of the schema resource (`resourceURIs`) the subschema belongs to.
        let resource: Int
    }

    /// Keywords whose value is one subschema, an array of them, or an object of them.
    static let singleSubschemaKeywords: Set<String> = [
        "additionalProperties", "items", "contains", "propertyNames", "if", "then", "else", "not",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    ]
    static let subschemaListKeywords: Set<String> = ["prefixItems", "allOf", "anyOf", "oneOf"]
    static let subschemaMapKeywords: Set<String> = ["properties", "patternProperties", "$defs", "dependentSchemas", "definitions", "dependencies"]

    static let standardMetaschema = "https://json-schema.org/draft/2020-12/schema"

    private(set) var documents: [Document] = []
    private var scopes: [SchemaLocation: Scope] = [:]
    private var resources: [String: SchemaLocation] = [:]
    private var resourceIndexes: [String: Int] = [:]
    private(set) var resourceURIs: [String] = []
    private var anchors: [String: SchemaLocation] = [:]
    /// `$dynamicAnchor` names, each with the resources that declare it and where.
    private(set) var dynamicAnchors: [String: [(resource: Int, location: SchemaLocation)]] = [:]
    private let resolver: (any SchemaResolver)?

    init(resolver: (any SchemaResolver)?) {
        self.resolver = resolver
    }

    // MARK: Documents

    /// Adds a document and scans it from its root; returns its index.
    @discardableResult
    mutating func add(_ root: JSONValue, uri: String) throws(SchemaError) -> Int {
        let index = documents.count
        documents.append(Document(root: root, uri: uri))
        let location = SchemaLocation(document: index, pointer: "")
        try scan(root, at: location, base: uri, vocabularies: .standard, resource: register(resource: uri, at: location))
        return index
    }

    /// Scans a subschema the root scan did not reach (an action's params inside a contract), with
    /// the base URI and dialect of its nearest scanned ancestor.
    mutating func scanUnreached(_ location: SchemaLocation) throws(SchemaError) {
        guard scopes[location] == nil, let value = value(at: location) else { return }
        let outer = scope(of: location)
        try scan(value, at: location, base: outer.base, vocabularies: outer.vocabularies, resource: outer.resource)
    }

    func value(at location: SchemaLocation) -> JSONValue? {
        JSONPointer.resolve(location.pointer, in: documents[location.document].root)
    }

    /// A location as error messages show it: the pointer alone in the schema's own document.
    func describe(_ location: SchemaLocation) -> String {
        location.document == 0 ? location.pointer : documents[location.document].uri + "#" + location.pointer
    }

    /// The scope of `location`, or of its nearest scanned ancestor for a place no scan reached
    /// (a `$ref` into an unknown keyword).
    func scope(of location: SchemaLocation) -> Scope {
        var pointer = location.pointer
        while true {
            if let scope = scopes[SchemaLocation(document: location.document, pointer: pointer)] { return scope }
            guard let slash = pointer.lastIndex(of: "/") else { break }
            pointer = String(pointer[..<slash])
        }
        return Scope(base: documents[location.document].uri, vocabularies: .standard, resource: 0)
    }

    // MARK: Resolving

    /// The location an absolute URI names (a resource, a JSON Pointer inside one, or an anchor),
    /// loading its document from the metaschemas or the resolver on first use; `at` is where the
    /// reference stands, for errors.
    mutating func locate(_ uri: SchemaURI, at here: String) throws(SchemaError) -> SchemaLocation {
        let resourceURI = uri.withoutFragment.text
        let resource = try resourceLocation(resourceURI, at: here)
        let fragment = uri.fragment ?? ""
        if fragment.isEmpty { return resource }
        guard let decoded = SchemaCompiler.percentDecoded(fragment[...]) else {
            throw SchemaError(schemaPath: here, message: "\(JSONValue.string(uri.text)) has a malformed percent-escape")
        }
        if decoded.hasPrefix("/") {
            guard let tokens = JSONPointer.tokens(decoded) else {
                throw SchemaError(schemaPath: here, message: "expected a JSON Pointer after #, got \(JSONValue.string(uri.text))")
            }
            let target = SchemaLocation(document: resource.document, pointer: tokens.reduce(resource.pointer) { JSONPointer.appending($0, key: $1) })
            guard value(at: target) != nil else {
                throw SchemaError(schemaPath: here, message: "\(JSONValue.string(uri.text)) points at nothing in this schema")
            }
            return target
        }
        guard let anchor = anchors[resourceURI + "#" + decoded] else {
            throw SchemaError(schemaPath: here, message: "\(JSONValue.string(uri.text)) names no $anchor or $dynamicAnchor")
        }
        return anchor
    }

    /// Whether the subschema at `location` declares `$dynamicAnchor` `name`.
    func declaresDynamicAnchor(_ name: String, at location: SchemaLocation) -> Bool {
        value(at: location)?.objectValue?["$dynamicAnchor"]?.stringValue == name
    }

    private mutating func resourceLocation(_ uri: String, at here: String) throws(SchemaError) -> SchemaLocation {
        if let location = resources[uri] { return location }
        let document: JSONValue
        if let text = SchemaMetaschemas.text(for: uri) {
            do {
                document = try JSONParser.parse(text)
            } catch {
                throw SchemaError(schemaPath: here, message: "the bundled metaschema \(uri) does not parse: \(error)")
            }
        } else if let found = resolver?.document(at: uri) {
            document = found
        } else {
            throw SchemaError(schemaPath: here, message: "no schema is known as \(JSONValue.string(uri)); references may name this schema, its $ids and the 2020-12 metaschemas")
        }
        let index = try add(document, uri: uri)
        return SchemaLocation(document: index, pointer: "")
    }

    /// The index of the resource `uri` names, registered at `location` when it is new (a
    /// document's root whose `$id` repeats the URI it was asked for keeps one index).
    private mutating func register(resource uri: String, at location: SchemaLocation) -> Int {
        if let known = resourceIndexes[uri] { return known }
        resources[uri] = location
        resourceIndexes[uri] = resourceURIs.count
        resourceURIs.append(uri)
        return resourceURIs.count - 1
    }

    // MARK: Scanning

    private mutating func scan(_ value: JSONValue, at location: SchemaLocation, base: String, vocabularies: SchemaVocabularies,
                               resource: Int) throws(SchemaError) {
        guard case .object(let object) = value else {
            scopes[location] = Scope(base: base, vocabularies: vocabularies, resource: resource)
            return
        }
        var base = base
        var vocabularies = vocabularies
        var resource = resource
        let here = describe(location)
        if case .string(let id)? = object["$id"] {
            let uri = SchemaURI(base).resolving(id)
            if let fragment = uri.fragment, !fragment.isEmpty {
                throw SchemaError(schemaPath: JSONPointer.appending(here, key: "$id"), message: "expected a URI without a fragment (name a subschema with $anchor), got \(JSONValue.string(id))")
            }
            base = uri.withoutFragment.text
            resource = register(resource: base, at: location)
        }
        if case .string(let dialect)? = object["$schema"] {
            vocabularies = try self.vocabularies(of: SchemaURI(base).resolving(dialect).withoutFragment.text,
                                                 at: JSONPointer.appending(here, key: "$schema"))
        }
        scopes[location] = Scope(base: base, vocabularies: vocabularies, resource: resource)
        for keyword in ["$anchor", "$dynamicAnchor"] {
            guard case .string(let name)? = object[keyword] else { continue }
            guard Self.isAnchorName(name) else {
                throw SchemaError(schemaPath: JSONPointer.appending(here, key: keyword), message: "expected a name that starts with a letter or _ and holds only letters, digits, -, _ and ., got \(JSONValue.string(name))")
            }
            anchors[base + "#" + name] = location
            if keyword == "$dynamicAnchor" { dynamicAnchors[name, default: []].append((resource, location)) }
        }
        for (key, member) in object.members {
            if Self.singleSubschemaKeywords.contains(key) {
                try scan(member, at: location.appending(key: key), base: base, vocabularies: vocabularies, resource: resource)
            } else if Self.subschemaListKeywords.contains(key), case .array(let list) = member {
                for (i, subschema) in list.enumerated() {
                    try scan(subschema, at: location.appending(key: key).appending(index: i), base: base, vocabularies: vocabularies, resource: resource)
                }
            } else if Self.subschemaMapKeywords.contains(key), case .object(let map) = member {
                for (name, subschema) in map.members {
                    try scan(subschema, at: location.appending(key: key).appending(key: name), base: base, vocabularies: vocabularies, resource: resource)
                }
            }
        }
    }

    /// The vocabularies of the dialect a `$schema` names: the `$vocabulary` of that metaschema.
    private mutating func vocabularies(of metaschema: String, at here: String) throws(SchemaError) -> SchemaVocabularies {
        if metaschema == Self.standardMetaschema { return .standard }
        let location = try resourceLocation(metaschema, at: here)
        guard case .object(let declared)? = value(at: location)?.objectValue?["$vocabulary"] else { return .standard }
        var vocabularies: SchemaVocabularies = []
        for (uri, required) in declared.members {
            if let known = SchemaVocabularies.byURI[uri] {
                vocabularies.insert(known)
            } else if required == .bool(true) {
                throw SchemaError(schemaPath: here, message: "the dialect \(metaschema) requires the vocabulary \(uri), which this validator does not know")
            }
        }
        return vocabularies
    }

    /// `^[A-Za-z_][-A-Za-z0-9._]*$`, the draft's anchor names.
    static func isAnchorName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
