import JSON

/// One compiled (sub)schema: its keywords decoded into fields, its subschemas as indexes into the
/// validator's node table (which is how `$ref` cycles are expressed without reference cycles).
///
/// A final class rather than a struct so that the evaluator holds one reference per node instead
/// of copying (and retaining) a couple of dozen fields each time it visits one.
final class SchemaNode: Sendable {
    /// Where the subschema sits in the schema, as a JSON Pointer: for compile-time errors.
    let location: String
    let keywords: SchemaKeywords

    init(location: String, keywords: SchemaKeywords) {
        self.location = location
        self.keywords = keywords
    }
}
