/// A failure that records only that it happened: what `isValid` and trial branches use.
struct BareSchemaFailure: SchemaFailure {
    static var carriesDetail: Bool { false }
    var depth: Int { 0 }
    @inline(__always) init(message: @autoclosure () -> String) {}
    @inline(__always) init(unexpected key: String, note: String, expected: @autoclosure () -> SchemaExpectedProperties) {}
    @inline(__always) mutating func prepend(key: String) {}
    @inline(__always) mutating func prepend(index: Int) {}
}
