import JSON

/// A place in one of the documents a compilation reads: the schema's own document is 0, then
/// each metaschema or remote document in the order a reference first needed it.
struct SchemaLocation: Hashable, Sendable {
    let document: Int
    /// A JSON Pointer into that document.
    let pointer: String

    func appending(key: String) -> SchemaLocation {
        SchemaLocation(document: document, pointer: JSONPointer.appending(pointer, key: key))
    }

    func appending(index: Int) -> SchemaLocation {
        SchemaLocation(document: document, pointer: JSONPointer.appending(pointer, index: index))
    }
}
