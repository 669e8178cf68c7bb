/// The schema resources evaluation has entered, innermost first: where `$dynamicRef` looks for
/// the outermost `$dynamicAnchor` of its name.
///
/// A linked list of immutable links, so that a branch extends its caller's scope without copying
/// it and drops the extension by returning. Only validators whose schema has a `$dynamicRef` that
/// is really dynamic build one; every other validator passes nil and pays nothing.
final class SchemaDynamicScope: Sendable {
    let resource: Int
    let outer: SchemaDynamicScope?

    init(resource: Int, outer: SchemaDynamicScope?) {
        self.resource = resource
        self.outer = outer
    }
}
