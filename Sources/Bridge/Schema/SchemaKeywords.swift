import JSON

/// The validation keywords of one subschema, decoded once at compile time.
///
/// Every subschema is an index into the validator's node table. Absent keywords are nil or empty;
/// the `has…Rules` flags let the evaluator skip whole groups with one test.
struct SchemaKeywords: Sendable {
    // Declared (and so laid out) with what every visit reads first: the flags, `type`, `enum`,
    // `const`, then the object keywords and applicators contracts use. A node spans several cache
    // lines, and on the bridge, between calls, they are cold.

    /// `true`, `{}` or a schema of annotations only.
    private(set) var acceptsEverything = false
    /// `false`.
    var rejectsEverything = false

    // Set by `seal()`, so the evaluator tests one stored flag per group.
    private(set) var hasNumberRules = false
    private(set) var hasStringRules = false
    private(set) var hasArrayRules = false
    private(set) var hasObjectRules = false
    private(set) var hasApplicators = false
    /// `unevaluatedItems` or `unevaluatedProperties`: the only keywords that read annotations.
    private(set) var hasUnevaluated = false

    /// `"format": "binary"`: a `type: "string"` here also admits `bytes`.
    var allowsBinary = false
    /// `additionalProperties: false`, reported as "unexpected property".
    var forbidsAdditionalProperties = false
    /// `items: false`, reported as "unexpected item".
    var forbidsAdditionalItems = false
    /// `unevaluatedProperties: false`, reported as "unexpected property".
    var forbidsUnevaluatedProperties = false
    var uniqueItems = false
    var types: SchemaTypeSet?

    var enumValues: [SchemaConstant]?
    var constValue: SchemaConstant?

    var properties = SchemaPropertyTable()
    var patternProperties: [(pattern: SchemaPattern, node: Int)] = []
    var additionalProperties: Int?
    var propertyNames: Int?
    var unevaluatedProperties: Int?

    var reference: Int?
    var ifSchema: Int?
    var thenSchema: Int?
    var elseSchema: Int?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    /// `$dynamicRef`: where it points when no outer schema resource says otherwise, and, when the
    /// target is a `$dynamicAnchor` of the same name, that name's index in the validator's table.
    var dynamicReference: Int?
    var dynamicName: Int?

    var pattern: SchemaPattern?
    var minLength: Int?
    var maxLength: Int?
    /// A `format` asserted here: only when the contract or the schema's dialect asks for it.
    var format: SchemaFormat?

    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?

    var minItems: Int?
    var maxItems: Int?
    var prefixItems: [Int] = []
    var items: Int?
    var contains: Int?
    var minContains: Int?
    var maxContains: Int?
    var unevaluatedItems: Int?

    var minProperties: Int?
    var maxProperties: Int?
    var dependentRequired: [(name: String, required: [String])] = []
    var dependentSchemas: [(name: String, node: Int)] = []

    /// `string or null`, for messages.
    var typeLabel = ""

    /// Derives the group flags once every keyword is in.
    mutating func seal() {
        hasNumberRules = minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil || multipleOf != nil
        hasStringRules = minLength != nil || maxLength != nil || pattern != nil || format != nil
        hasArrayRules = minItems != nil || maxItems != nil || !prefixItems.isEmpty || items != nil || uniqueItems || contains != nil
        hasObjectRules = !properties.isEmpty || additionalProperties != nil || !patternProperties.isEmpty || propertyNames != nil
            || minProperties != nil || maxProperties != nil || !dependentRequired.isEmpty || !dependentSchemas.isEmpty
        hasApplicators = reference != nil || dynamicReference != nil || !allOf.isEmpty || !anyOf.isEmpty || !oneOf.isEmpty
            || not != nil || ifSchema != nil
        hasUnevaluated = unevaluatedItems != nil || unevaluatedProperties != nil
        acceptsEverything = !rejectsEverything && types == nil && enumValues == nil && constValue == nil
            && !hasNumberRules && !hasStringRules && !hasArrayRules && !hasObjectRules && !hasApplicators && !hasUnevaluated
    }

    /// Keywords that apply subschemas to the same instance: the edges a `$ref` cycle runs along.
    /// `then` and `else` only run with `if`, which sits beside them, so `if` stands for the three.
    var sameInstanceSubschemas: [Int] {
        var all = allOf + anyOf + oneOf + dependentSchemas.map(\.node)
        for single in [reference, dynamicReference, not, ifSchema, ifSchema == nil ? nil : thenSchema, ifSchema == nil ? nil : elseSchema] {
            if let single { all.append(single) }
        }
        return all
    }
}
