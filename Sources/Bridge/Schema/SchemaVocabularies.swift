/// The draft 2020-12 vocabularies a schema resource's dialect turns on, from the `$vocabulary` of
/// the metaschema its `$schema` names. A keyword whose vocabulary is off is an unknown keyword:
/// ignored, as the draft says. Without `$schema`, or with the standard metaschema, every
/// vocabulary is on except format assertion.
struct SchemaVocabularies: OptionSet, Sendable {
    let rawValue: UInt8

    static let core = SchemaVocabularies(rawValue: 1 << 0)
    static let applicator = SchemaVocabularies(rawValue: 1 << 1)
    static let unevaluated = SchemaVocabularies(rawValue: 1 << 2)
    static let validation = SchemaVocabularies(rawValue: 1 << 3)
    static let metaData = SchemaVocabularies(rawValue: 1 << 4)
    static let formatAnnotation = SchemaVocabularies(rawValue: 1 << 5)
    static let formatAssertion = SchemaVocabularies(rawValue: 1 << 6)
    static let content = SchemaVocabularies(rawValue: 1 << 7)

    /// The standard 2020-12 dialect.
    static let standard: SchemaVocabularies = [.core, .applicator, .unevaluated, .validation, .metaData, .formatAnnotation, .content]

    static let byURI: [String: SchemaVocabularies] = [
        "https://json-schema.org/draft/2020-12/vocab/core": .core,
        "https://json-schema.org/draft/2020-12/vocab/applicator": .applicator,
        "https://json-schema.org/draft/2020-12/vocab/unevaluated": .unevaluated,
        "https://json-schema.org/draft/2020-12/vocab/validation": .validation,
        "https://json-schema.org/draft/2020-12/vocab/meta-data": .metaData,
        "https://json-schema.org/draft/2020-12/vocab/format-annotation": .formatAnnotation,
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": .formatAssertion,
        "https://json-schema.org/draft/2020-12/vocab/content": .content,
    ]
}
