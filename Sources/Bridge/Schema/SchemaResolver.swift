import JSON

/// Where a validator finds schema documents its references name that are neither in the schema
/// nor the bundled 2020-12 metaschemas. The validator never fetches anything itself: a resolver
/// is how a caller lends it documents it already has (the test suite serves its `remotes/` folder
/// as `http://localhost:1234/` through one).
public protocol SchemaResolver: Sendable {
    /// The document named by an absolute URI without fragment, or nil when there is none.
    func document(at uri: String) -> JSONValue?
}
