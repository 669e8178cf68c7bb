/// What evaluation hands back when an instance fails, in one of two flavours.
///
/// The evaluator is generic over this so one body of code serves both `isValid` (a
/// ``BareSchemaFailure``: no message built, no path kept) and `firstViolation` (a
/// ``TracedSchemaFailure``). Messages arrive as autoclosures and the path is prepended on the way
/// out, so nothing is allocated until something has failed, and never for branches of
/// `anyOf`/`oneOf`/`not` that are tried and rejected on the way to a success.
protocol SchemaFailure {
    /// Whether this flavour reports messages: lets the evaluator skip work done only for them.
    static var carriesDetail: Bool { get }
    /// How many steps into the instance the failure lies: the deepest branch's failure is the
    /// most specific one to report when no branch of an `anyOf` or `oneOf` matches.
    var depth: Int { get }
    init(message: @autoclosure () -> String)
    /// The property `key` is not allowed; `expected` says which names its object takes.
    init(unexpected key: String, note: String, expected: @autoclosure () -> SchemaExpectedProperties)
    mutating func prepend(key: String)
    mutating func prepend(index: Int)
}
