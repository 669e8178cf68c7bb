import JSON

/// One compiled (sub)schema: its keywords decoded into fields, its subschemas as indexes into the
/// validator's node table (which is how `$ref` cycles are expressed without reference cycles).
///
/// A final class rather than a struct so that the evaluator holds one reference per node instead
/// of copying (and retaining) a couple of dozen fields each time it visits one.
final class SchemaNode: Sendable {
    /// First, so that its hot fields start the object (see ``SchemaKeywords``).
    let keywords: SchemaKeywords
    /// Where the subschema sits, as a JSON Pointer into the schema's document, preceded by the
    /// document's URI when it is another document (a metaschema, a remote): for compile-time errors.
    let location: String
    /// The schema resource (`$id`) it belongs to, as an index: what `$dynamicRef`'s dynamic scope is
    /// made of.
    let resource: Int

    init(location: String, resource: Int, keywords: SchemaKeywords) {
        self.location = location
        self.resource = resource
        self.keywords = keywords
    }
}
