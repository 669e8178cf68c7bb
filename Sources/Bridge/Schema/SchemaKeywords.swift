import JSON

/// The validation keywords of one subschema, decoded once at compile time.
///
/// Every subschema is an index into the validator's node table. Absent keywords are nil or empty;
/// the `has…Rules` flags let the evaluator skip whole groups with one test.
struct SchemaKeywords: Sendable {
    /// `true`, `{}` or a schema of annotations only.
    private(set) var acceptsEverything = false
    /// `false`.
    var rejectsEverything = false

    var types: SchemaTypeSet?
    /// `string or null`, for messages.
    var typeLabel = ""
    /// `"format": "binary"`: a `type: "string"` here also admits `bytes`.
    var allowsBinary = false

    var enumValues: [JSONValue]?
    var constValue: JSONValue?

    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?

    var minLength: Int?
    var maxLength: Int?
    var pattern: SchemaPattern?

    var minItems: Int?
    var maxItems: Int?
    var prefixItems: [Int] = []
    var items: Int?

    var properties = SchemaPropertyTable()
    var additionalProperties: Int?
    /// `additionalProperties: false`, reported as "unexpected property".
    var forbidsAdditionalProperties = false
    /// `items: false`, reported as "unexpected item".
    var forbidsAdditionalItems = false

    var reference: Int?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?

    // Set by `seal()`, so the evaluator tests one stored flag per group.
    private(set) var hasNumberRules = false
    private(set) var hasStringRules = false
    private(set) var hasArrayRules = false
    private(set) var hasObjectRules = false
    private(set) var hasApplicators = false

    /// Derives the group flags once every keyword is in.
    mutating func seal() {
        hasNumberRules = minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil
        hasStringRules = minLength != nil || maxLength != nil || pattern != nil
        hasArrayRules = minItems != nil || maxItems != nil || !prefixItems.isEmpty || items != nil
        hasObjectRules = !properties.isEmpty || additionalProperties != nil
        hasApplicators = reference != nil || !allOf.isEmpty || !anyOf.isEmpty || !oneOf.isEmpty || not != nil
        acceptsEverything = !rejectsEverything && types == nil && enumValues == nil && constValue == nil
            && !hasNumberRules && !hasStringRules && !hasArrayRules && !hasObjectRules && !hasApplicators
    }

    /// Keywords that apply subschemas to the same instance: the edges a `$ref` cycle runs along.
    var sameInstanceSubschemas: [Int] {
        var all = allOf + anyOf + oneOf
        if let reference { all.append(reference) }
        if let not { all.append(not) }
        return all
    }
}
