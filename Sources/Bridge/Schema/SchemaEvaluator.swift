import JSON

/// Runs compiled nodes over an instance and hands back the first failure.
///
/// Order, so that the first failure is the same every time: `type`; `enum`; `const`; then by the
/// instance's kind: number bounds (minimum, maximum, exclusiveMinimum, exclusiveMaximum,
/// multipleOf); string length, `pattern`, then `format` when it asserts; array `minItems`,
/// `maxItems`, `uniqueItems`, the items in order, then `contains`; object `minProperties`,
/// `maxProperties`, members in the instance's order (`properties` and `patternProperties`, else
/// `additionalProperties`; then `propertyNames`), `required`, `dependentRequired`,
/// `dependentSchemas`; then `$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `not`,
/// `if`/`then`/`else`; last `unevaluatedItems` and `unevaluatedProperties`.
///
/// Annotations are gathered only where `unevaluated*` reads them: a node with one of those
/// keywords hands a ``SchemaEvaluatedSet`` down the subschemas it applies in place, each marks the
/// members or items it evaluated, and conditional ones (`if`, the branches of `anyOf` and `oneOf`)
/// mark a copy that counts only if they pass. Everywhere else the set is
/// ``SchemaEvaluatedSet/unwanted`` and nothing more is done: schemas without `unevaluated*`,
/// which are most contracts, do not pay for it.
struct SchemaEvaluator: Sendable {
    let nodes: [SchemaNode]
    /// `nodes` again, unretained: a node taken from `nodes` is retained and released on each
    /// visit, though `nodes` holds it for as long as the evaluator lives.
    private let visits: [Unmanaged<SchemaNode>]
    /// For each dynamic `$dynamicRef` name, its `$dynamicAnchor` node in each resource declaring it.
    let dynamicTargets: [[Int: Int]]
    /// Whether some `$dynamicRef` is dynamic: only then is the dynamic scope built.
    let tracksScope: Bool

    init(_ compiled: SchemaCompiler.Output) {
        nodes = compiled.nodes
        visits = compiled.nodes.map { Unmanaged.passUnretained($0) }
        dynamicTargets = compiled.dynamicTargets
        tracksScope = !compiled.dynamicTargets.isEmpty
    }

    /// The first failure of `instance` against the node at `index`.
    @inline(__always)
    func evaluate<F: SchemaFailure>(_ index: Int, _ instance: JSONValue, _ scope: SchemaDynamicScope?, as _: F.Type) -> F? {
        var unwanted = SchemaEvaluatedSet.unwanted
        return evaluate(index, instance, scope, as: F.self, marking: &unwanted)
    }

    /// The first failure of `instance` against the node at `index`; when there is none, the
    /// members or items the node evaluated are in `marks` (if it is wanted).
    private func evaluate<F: SchemaFailure>(_ index: Int, _ instance: JSONValue, _ outerScope: SchemaDynamicScope?, as _: F.Type,
                                            marking marks: inout SchemaEvaluatedSet) -> F? {
        visits[index]._withUnsafeGuaranteedRef { evaluate($0, instance, outerScope, as: F.self, marking: &marks) }
    }

    /// The same, given the node, which `nodes` keeps alive.
    @inline(__always)
    private func evaluate<F: SchemaFailure>(_ node: SchemaNode, _ instance: JSONValue, _ outerScope: SchemaDynamicScope?, as _: F.Type,
                                            marking marks: inout SchemaEvaluatedSet) -> F? {
        if node.keywords.acceptsEverything { return nil }
        if node.keywords.rejectsEverything { return F(message: "no value is allowed here") }
        let scope = enter(node, outerScope)

        if let types = node.keywords.types, !types.admits(instance, binary: node.keywords.allowsBinary) {
            return F(message: "expected \(node.keywords.typeLabel), got \(instance.typeName)")
        }
        if let values = node.keywords.enumValues, !values.contains(where: { $0.matches(instance) }) {
            return F(message: Self.enumMessage(values.map(\.value)))
        }
        if let constant = node.keywords.constValue, !constant.matches(instance) {
            return F(message: "must be \(constant.value)")
        }

        guard node.keywords.hasUnevaluated else { return checkRest(instance, node, scope, as: F.self, marking: &marks) }
        // The node's own unevaluated* reads what the rest of it evaluated; once it passed, every
        // member or item was evaluated, for whoever asks above.
        switch instance {
        case .object(let object) where node.keywords.unevaluatedProperties != nil && !object.isEmpty:
            var evaluated = SchemaEvaluatedSet(count: object.count)
            if let failure = checkRest(instance, node, scope, as: F.self, marking: &evaluated)
                ?? checkUnevaluatedProperties(object, node, evaluated, scope, as: F.self) {
                return failure
            }
        case .array(let array) where node.keywords.unevaluatedItems != nil && !array.isEmpty:
            var evaluated = SchemaEvaluatedSet(count: array.count)
            if let failure = checkRest(instance, node, scope, as: F.self, marking: &evaluated)
                ?? checkUnevaluatedItems(array, node, evaluated, scope, as: F.self) {
                return failure
            }
        default:
            return checkRest(instance, node, scope, as: F.self, marking: &marks)
        }
        if marks.isWanted { marks.insertAll() }
        return nil
    }

    /// The keywords for the instance's kind, then the applicators.
    @inline(__always)
    private func checkRest<F: SchemaFailure>(_ instance: JSONValue, _ node: SchemaNode, _ scope: SchemaDynamicScope?, as _: F.Type,
                                             marking marks: inout SchemaEvaluatedSet) -> F? {
        switch instance {
        case .number(let number) where node.keywords.hasNumberRules:
            if let failure = checkBounds(number, node, as: F.self) { return failure }
        case .string(let string) where node.keywords.hasStringRules:
            if let failure = checkString(string, node, as: F.self) { return failure }
        case .array(let array) where node.keywords.hasArrayRules:
            if let failure = checkArray(array, node, scope, as: F.self, marking: &marks) { return failure }
        case .object(let object) where node.keywords.hasObjectRules:
            if let failure = checkObject(object, instance, node, scope, as: F.self, marking: &marks) { return failure }
        default:
            break
        }
        guard node.keywords.hasApplicators else { return nil }
        return checkApplicators(instance, node, scope, as: F.self, marking: &marks)
    }

    @inline(__always)
    private func isValid(_ index: Int, _ instance: JSONValue, _ scope: SchemaDynamicScope?) -> Bool {
        evaluate(index, instance, scope, as: BareSchemaFailure.self) == nil
    }

    @inline(__always)
    private func isValid(_ index: Int, _ instance: JSONValue, _ scope: SchemaDynamicScope?, marking marks: inout SchemaEvaluatedSet) -> Bool {
        evaluate(index, instance, scope, as: BareSchemaFailure.self, marking: &marks) == nil
    }

    /// The scope with `node`'s resource innermost, when scopes are tracked at all.
    @inline(__always)
    private func enter(_ node: SchemaNode, _ scope: SchemaDynamicScope?) -> SchemaDynamicScope? {
        guard tracksScope, scope?.resource != node.resource else { return scope }
        return SchemaDynamicScope(resource: node.resource, outer: scope)
    }

    // MARK: Kinds

    // Negated comparisons, so that a NaN (which JSON cannot carry but a JS value can) fails.
    private func checkBounds<F: SchemaFailure>(_ n: Double, _ node: SchemaNode, as _: F.Type) -> F? {
        if let bound = node.keywords.minimum, !(n >= bound) { return F(message: "must be at least \(Self.text(bound))") }
        if let bound = node.keywords.maximum, !(n <= bound) { return F(message: "must be at most \(Self.text(bound))") }
        if let bound = node.keywords.exclusiveMinimum, !(n > bound) { return F(message: "must be greater than \(Self.text(bound))") }
        if let bound = node.keywords.exclusiveMaximum, !(n < bound) { return F(message: "must be less than \(Self.text(bound))") }
        if let divisor = node.keywords.multipleOf {
            // The quotient in binary floating point, as jsonschema and the test suite take it; when
            // it overflows, the exact remainder decides (1e308 is a multiple of 0.5, not of 0.123456789).
            let quotient = n / divisor
            let isMultiple = quotient.isFinite ? quotient.rounded(.towardZero) == quotient : n.truncatingRemainder(dividingBy: divisor) == 0
            if !isMultiple {
                return F(message: "must be a multiple of \(Self.text(divisor))")
            }
        }
        return nil
    }

    private func checkString<F: SchemaFailure>(_ s: String, _ node: SchemaNode, as _: F.Type) -> F? {
        if node.keywords.minLength != nil || node.keywords.maxLength != nil {
            // A code point takes one to four UTF-8 bytes, so the byte count (which is O(1)) often
            // settles the question without walking the string.
            let bytes = s.utf8.count
            if let min = node.keywords.minLength, (bytes + 3) / 4 < min, bytes < min || s.unicodeScalars.count < min {
                return F(message: "must be at least \(min) \(min == 1 ? "character" : "characters") long")
            }
            if let max = node.keywords.maxLength, bytes > max, s.unicodeScalars.count > max {
                return F(message: "must be at most \(max) \(max == 1 ? "character" : "characters") long")
            }
        }
        if let pattern = node.keywords.pattern, !pattern.matches(s) {
            return F(message: "does not match pattern \(pattern.source)")
        }
        if let format = node.keywords.format, !format.admits(s) {
            return F(message: "expected \(format.label), got \(JSONValue.string(s))")
        }
        return nil
    }

    private func checkArray<F: SchemaFailure>(_ array: [JSONValue], _ node: SchemaNode, _ scope: SchemaDynamicScope?, as _: F.Type,
                                              marking marks: inout SchemaEvaluatedSet) -> F? {
        if let min = node.keywords.minItems, array.count < min {
            return F(message: "must have at least \(min) \(min == 1 ? "item" : "items")")
        }
        if let max = node.keywords.maxItems, array.count > max {
            return F(message: "must have at most \(max) \(max == 1 ? "item" : "items")")
        }
        if node.keywords.uniqueItems {
            for i in array.indices.dropFirst() {
                for j in 0..<i where SchemaEquality.equal(array[j], array[i]) {
                    var failure = F(message: "must be unique; equals item \(j)")
                    failure.prepend(index: i)
                    return failure
                }
            }
        }
        let prefix = node.keywords.prefixItems
        for i in array.indices {
            let subschema: Int
            if i < prefix.count {
                subschema = prefix[i]
            } else if let items = node.keywords.items {
                if node.keywords.forbidsAdditionalItems {
                    var failure = F(message: "unexpected item; expected at most \(prefix.count) \(prefix.count == 1 ? "item" : "items")")
                    failure.prepend(index: i)
                    return failure
                }
                subschema = items
            } else {
                break
            }
            if var failure = evaluate(subschema, array[i], scope, as: F.self) {
                failure.prepend(index: i)
                return failure
            }
            if marks.isWanted { marks.insert(i) }
        }
        if let contains = node.keywords.contains {
            let min = node.keywords.minContains ?? 1
            var matches = 0
            // Every item is tried when the ones that match are wanted.
            for (i, item) in array.enumerated() where isValid(contains, item, scope) {
                matches += 1
                if marks.isWanted {
                    marks.insert(i)
                } else if matches >= min, node.keywords.maxContains == nil {
                    break
                }
            }
            if matches < min {
                return F(message: "must contain at least \(min) \(min == 1 ? "item" : "items") matching the schema in contains (found \(matches))")
            }
            if let max = node.keywords.maxContains, matches > max {
                return F(message: "must contain at most \(max) \(max == 1 ? "item" : "items") matching the schema in contains (found \(matches))")
            }
        }
        return nil
    }

    private func checkObject<F: SchemaFailure>(_ object: JSONObject, _ instance: JSONValue, _ node: SchemaNode, _ scope: SchemaDynamicScope?,
                                               as _: F.Type, marking marks: inout SchemaEvaluatedSet) -> F? {
        if let min = node.keywords.minProperties, object.count < min {
            return F(message: "must have at least \(min) \(min == 1 ? "property" : "properties")")
        }
        if let max = node.keywords.maxProperties, object.count > max {
            return F(message: "must have at most \(max) \(max == 1 ? "property" : "properties")")
        }
        var requiredSeen = 0
        // Read once rather than per member: the calls in the loop keep the compiler from hoisting it.
        let hasPatternProperties = !node.keywords.patternProperties.isEmpty
        // Through the buffer rather than `for member in`, which copies (retains) each key and value.
        let failure: F? = object.members.withUnsafeBufferPointer { members in
            for i in members.indices {
                var matched = false
                if let slot = node.keywords.properties.slot(of: members[i].key) {
                    if node.keywords.properties.entries[slot].isRequired { requiredSeen += 1 }
                    if let subschema = node.keywords.properties.entries[slot].node {
                        if var failure = evaluate(subschema, members[i].value, scope, as: F.self) {
                            failure.prepend(key: members[i].key)
                            return failure
                        }
                        matched = true
                    }
                }
                if hasPatternProperties {
                    for (pattern, subschema) in node.keywords.patternProperties where pattern.matches(members[i].key) {
                        if var failure = evaluate(subschema, members[i].value, scope, as: F.self) {
                            failure.prepend(key: members[i].key)
                            return failure
                        }
                        matched = true
                    }
                }
                if !matched, let additional = node.keywords.additionalProperties {
                    if let failure = checkLeftover(members[i], additional, forbidden: node.keywords.forbidsAdditionalProperties, note: "",
                                                   expected: .declared(by: node), scope, as: F.self) {
                        return failure
                    }
                    matched = true
                }
                if matched, marks.isWanted { marks.insert(i) }
                if let names = node.keywords.propertyNames, !isValid(names, .string(members[i].key), scope) {
                    var failure = F(message: "property name \(JSONValue.string(members[i].key)) is not allowed: \(detail(names, .string(members[i].key), scope))")
                    failure.prepend(key: members[i].key)
                    return failure
                }
            }
            return nil
        }
        if let failure { return failure }
        if requiredSeen < node.keywords.properties.requiredCount {
            for slot in node.keywords.properties.requiredSlots {
                let name = node.keywords.properties.entries[slot].name
                if SchemaEquality.member(named: name, in: object) == nil {
                    var failure = F(message: "missing required property \(JSONValue.string(name))")
                    failure.prepend(key: name)
                    return failure
                }
            }
        }
        for (name, required) in node.keywords.dependentRequired where SchemaEquality.member(named: name, in: object) != nil {
            for other in required where SchemaEquality.member(named: other, in: object) == nil {
                var failure = F(message: "missing property \(JSONValue.string(other)), required when \(JSONValue.string(name)) is present")
                failure.prepend(key: other)
                return failure
            }
        }
        for (name, subschema) in node.keywords.dependentSchemas where SchemaEquality.member(named: name, in: object) != nil {
            if let failure = evaluate(subschema, instance, scope, as: F.self, marking: &marks) { return failure }
        }
        return nil
    }

    /// A member that `additionalProperties` or `unevaluatedProperties` applies to: `false` names
    /// it as unexpected, a schema checks its value.
    private func checkLeftover<F: SchemaFailure>(_ member: JSONObject.Member, _ subschema: Int, forbidden: Bool, note: String,
                                                 expected: @autoclosure () -> SchemaExpectedProperties,
                                                 _ scope: SchemaDynamicScope?, as _: F.Type) -> F? {
        var failure: F
        if forbidden {
            failure = F(unexpected: member.key, note: note, expected: expected())
        } else if let found = evaluate(subschema, member.value, scope, as: F.self) {
            failure = found
        } else {
            return nil
        }
        failure.prepend(key: member.key)
        return failure
    }

    // MARK: Applicators

    /// `$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `not`, `if`. When `marks` is wanted, every
    /// branch of `anyOf` is tried (each that passes adds what it evaluated), not just up to the
    /// first that passes.
    private func checkApplicators<F: SchemaFailure>(_ instance: JSONValue, _ node: SchemaNode, _ scope: SchemaDynamicScope?, as _: F.Type,
                                                    marking marks: inout SchemaEvaluatedSet) -> F? {
        if let reference = node.keywords.reference, let failure = evaluate(reference, instance, scope, as: F.self, marking: &marks) {
            return failure
        }
        if let reference = dynamicTarget(of: node, scope), let failure = evaluate(reference, instance, scope, as: F.self, marking: &marks) {
            return failure
        }
        for branch in node.keywords.allOf {
            if let failure = evaluate(branch, instance, scope, as: F.self, marking: &marks) { return failure }
        }
        if !node.keywords.anyOf.isEmpty {
            var matched = false
            for branch in node.keywords.anyOf {
                var trial = marks
                guard isValid(branch, instance, scope, marking: &trial) else { continue }
                matched = true
                guard marks.isWanted else { break }
                marks = trial
            }
            if !matched {
                return explainNoMatch(instance, node.keywords.anyOf, scope, as: F.self)
                    ?? F(message: "must match at least one of \(node.keywords.anyOf.count) schemas")
            }
        }
        if !node.keywords.oneOf.isEmpty {
            var matches = 0
            var evaluated = marks
            for branch in node.keywords.oneOf {
                var trial = marks
                guard isValid(branch, instance, scope, marking: &trial) else { continue }
                matches += 1
                evaluated = trial
                // Two settle it; a message counts them all.
                if matches == 2, !F.carriesDetail { break }
            }
            if matches != 1 {
                if matches == 0, let failure = explainNoMatch(instance, node.keywords.oneOf, scope, as: F.self) { return failure }
                return F(message: "must match exactly one of \(node.keywords.oneOf.count) schemas (matched \(matches))")
            }
            marks = evaluated
        }
        if let not = node.keywords.not, isValid(not, instance, scope) {
            return F(message: "must not match the schema in \"not\"")
        }
        if let condition = node.keywords.ifSchema {
            var trial = marks
            let held = isValid(condition, instance, scope, marking: &trial)
            if held { marks = trial }
            if let branch = held ? node.keywords.thenSchema : node.keywords.elseSchema,
               let failure = evaluate(branch, instance, scope, as: F.self, marking: &marks) {
                return failure
            }
        }
        return nil
    }

    /// Where a `$dynamicRef` leads in this dynamic scope: the `$dynamicAnchor` of its name in the
    /// outermost resource that declares one, else its static target.
    @inline(__always)
    private func dynamicTarget(of node: SchemaNode, _ scope: SchemaDynamicScope?) -> Int? {
        guard let target = node.keywords.dynamicReference else { return nil }
        guard let name = node.keywords.dynamicName else { return target }
        var found = target
        var link = scope
        while let current = link {
            if let anchor = dynamicTargets[name][current.resource] { found = anchor }
            link = current.outer
        }
        return found
    }

    /// When no branch matched, the failure of the branch that says most: the only branch that
    /// admits the instance's type (`{"anyOf": [{"type": "string", "minLength": 1}, {"type":
    /// "null"}]}` against `""` reports "must be at least 1 character long"), else among those
    /// that do, the one whose failure lies deepest in the instance.
    private func explainNoMatch<F: SchemaFailure>(_ instance: JSONValue, _ branches: [Int], _ scope: SchemaDynamicScope?, as _: F.Type) -> F? {
        guard F.carriesDetail else { return nil }
        let candidates = branches.filter { admitsType($0, instance) }
        if candidates.count == 1 { return evaluate(candidates[0], instance, scope, as: F.self) }
        var best: F?
        for branch in candidates {
            if let failure = evaluate(branch, instance, scope, as: F.self), failure.depth > (best?.depth ?? 0) { best = failure }
        }
        return best
    }

    /// Whether a branch's `type` (following plain `$ref`s) admits the instance; true when it has none.
    private func admitsType(_ index: Int, _ instance: JSONValue) -> Bool {
        var index = index
        for _ in 0..<16 {
            let node = nodes[index]
            if node.keywords.rejectsEverything { return false }
            if let types = node.keywords.types { return types.admits(instance, binary: node.keywords.allowsBinary) }
            guard let reference = node.keywords.reference else { return true }
            index = reference
        }
        return true
    }

    /// The message of the failure of `instance` against `index`, for a message that wraps it.
    private func detail(_ index: Int, _ instance: JSONValue, _ scope: SchemaDynamicScope?) -> String {
        evaluate(index, instance, scope, as: TracedSchemaFailure.self)?.violation.description ?? ""
    }

    // MARK: Unevaluated

    /// `unevaluatedProperties`, once every other keyword of the node passed and marked what it
    /// evaluated in `evaluated`.
    private func checkUnevaluatedProperties<F: SchemaFailure>(_ object: JSONObject, _ node: SchemaNode, _ evaluated: SchemaEvaluatedSet,
                                                              _ scope: SchemaDynamicScope?, as _: F.Type) -> F? {
        guard let unevaluated = node.keywords.unevaluatedProperties else { return nil }
        for i in object.members.indices where !evaluated.contains(i) {
            if let failure = checkLeftover(object.members[i], unevaluated, forbidden: node.keywords.forbidsUnevaluatedProperties,
                                           note: " (unevaluatedProperties)", expected: .evaluated(by: node, in: nodes), scope, as: F.self) {
                return failure
            }
        }
        return nil
    }

    /// `unevaluatedItems`, once every other keyword of the node passed and marked what it
    /// evaluated in `evaluated`.
    private func checkUnevaluatedItems<F: SchemaFailure>(_ array: [JSONValue], _ node: SchemaNode, _ evaluated: SchemaEvaluatedSet,
                                                         _ scope: SchemaDynamicScope?, as _: F.Type) -> F? {
        guard let unevaluated = node.keywords.unevaluatedItems else { return nil }
        for i in array.indices where !evaluated.contains(i) {
            if var failure = evaluate(unevaluated, array[i], scope, as: F.self) {
                if failure.depth == 0, nodes[unevaluated].keywords.rejectsEverything {
                    failure = F(message: "unexpected item (unevaluatedItems)")
                }
                failure.prepend(index: i)
                return failure
            }
        }
        return nil
    }

    // MARK: Messages

    private static func enumMessage(_ values: [JSONValue]) -> String {
        if values.isEmpty { return "no value is allowed here (the enum is empty)" }
        if values.count == 1 { return "must be \(values[0])" }
        let shown = values.prefix(10).map(\.description).joined(separator: ", ")
        return "must be one of \(shown)\(values.count > 10 ? ", …" : "")"
    }

    private static func text(_ n: Double) -> String {
        var out = ""
        JSONWriter.writeNumber(n, into: &out)
        return out
    }
}
