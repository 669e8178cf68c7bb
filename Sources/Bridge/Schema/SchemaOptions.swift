/// How a validator reads its schema beyond the draft's defaults.
public struct SchemaOptions: Sendable {
    /// Whether `format` asserts (a `date` that is not a date fails) rather than annotates. A
    /// contract turns it on with `"format": "assert"`; a schema whose metaschema lists the
    /// format-assertion vocabulary asserts whatever this says.
    public var formatAssertion: Bool
    /// Documents for references outside the schema and the bundled metaschemas.
    public var resolver: (any SchemaResolver)?

    public init(formatAssertion: Bool = false, resolver: (any SchemaResolver)? = nil) {
        self.formatAssertion = formatAssertion
        self.resolver = resolver
    }
}
