import JSON

/// Runs compiled nodes over an instance and hands back the first failure.
///
/// Order, so that the first failure is the same every time: `type`; `enum`; `const`; then by the
/// instance's kind: number bounds (minimum, maximum, exclusiveMinimum, exclusiveMaximum); string
/// length then `pattern`; array `minItems`, `maxItems`, then the items in order; object members in
/// the instance's order (`properties`, else `additionalProperties`), then `required`; last `$ref`,
/// `allOf`, `anyOf`, `oneOf`, `not`.
struct SchemaEvaluator: Sendable {
    let nodes: [SchemaNode]

    func evaluate<F: SchemaFailure>(_ index: Int, _ instance: JSONValue, as _: F.Type) -> F? {
        let node = nodes[index]
        if node.keywords.acceptsEverything { return nil }
        if node.keywords.rejectsEverything { return F(message: "no value is allowed here") }

        if let types = node.keywords.types, !types.admits(instance, binary: node.keywords.allowsBinary) {
            return F(message: "expected \(node.keywords.typeLabel), got \(instance.typeName)")
        }
        if let values = node.keywords.enumValues, !values.contains(where: { SchemaEquality.equal($0, instance) }) {
            return F(message: Self.enumMessage(values))
        }
        if let value = node.keywords.constValue, !SchemaEquality.equal(value, instance) {
            return F(message: "must be \(value)")
        }

        switch instance {
        case .number(let number) where node.keywords.hasNumberRules:
            if let failure = checkBounds(number, node, as: F.self) { return failure }
        case .string(let string) where node.keywords.hasStringRules:
            if let failure = checkString(string, node, as: F.self) { return failure }
        case .array(let array) where node.keywords.hasArrayRules:
            if let failure = checkArray(array, node, as: F.self) { return failure }
        case .object(let object) where node.keywords.hasObjectRules:
            if let failure = checkObject(object, node, as: F.self) { return failure }
        default:
            break
        }

        if node.keywords.hasApplicators {
            return checkApplicators(instance, node, as: F.self)
        }
        return nil
    }

    // MARK: Kinds

    // Negated comparisons, so that a NaN (which JSON cannot carry but a JS value can) fails.
    private func checkBounds<F: SchemaFailure>(_ n: Double, _ node: SchemaNode, as _: F.Type) -> F? {
        if let bound = node.keywords.minimum, !(n >= bound) { return F(message: "must be at least \(Self.text(bound))") }
        if let bound = node.keywords.maximum, !(n <= bound) { return F(message: "must be at most \(Self.text(bound))") }
        if let bound = node.keywords.exclusiveMinimum, !(n > bound) { return F(message: "must be greater than \(Self.text(bound))") }
        if let bound = node.keywords.exclusiveMaximum, !(n < bound) { return F(message: "must be less than \(Self.text(bound))") }
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
        return nil
    }

    private func checkArray<F: SchemaFailure>(_ array: [JSONValue], _ node: SchemaNode, as _: F.Type) -> F? {
        if let min = node.keywords.minItems, array.count < min {
            return F(message: "must have at least \(min) \(min == 1 ? "item" : "items")")
        }
        if let max = node.keywords.maxItems, array.count > max {
            return F(message: "must have at most \(max) \(max == 1 ? "item" : "items")")
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
            if var failure = evaluate(subschema, array[i], as: F.self) {
                failure.prepend(index: i)
                return failure
            }
        }
        return nil
    }

    private func checkObject<F: SchemaFailure>(_ object: JSONObject, _ node: SchemaNode, as _: F.Type) -> F? {
        var requiredSeen = 0
        for member in object.members {
            if let slot = node.keywords.properties.slot(of: member.key) {
                if node.keywords.properties.entries[slot].isRequired { requiredSeen += 1 }
                if let subschema = node.keywords.properties.entries[slot].node {
                    if var failure = evaluate(subschema, member.value, as: F.self) {
                        failure.prepend(key: member.key)
                        return failure
                    }
                    continue
                }
            }
            guard let additional = node.keywords.additionalProperties else { continue }
            if node.keywords.forbidsAdditionalProperties {
                var failure = F(message: "unexpected property \(JSONValue.string(member.key))")
                failure.prepend(key: member.key)
                return failure
            }
            if var failure = evaluate(additional, member.value, as: F.self) {
                failure.prepend(key: member.key)
                return failure
            }
        }
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
        return nil
    }

    // MARK: Applicators

    private func checkApplicators<F: SchemaFailure>(_ instance: JSONValue, _ node: SchemaNode, as _: F.Type) -> F? {
        if let reference = node.keywords.reference, let failure = evaluate(reference, instance, as: F.self) {
            return failure
        }
        for branch in node.keywords.allOf {
            if let failure = evaluate(branch, instance, as: F.self) { return failure }
        }
        if !node.keywords.anyOf.isEmpty {
            var matched = false
            for branch in node.keywords.anyOf where evaluate(branch, instance, as: BareSchemaFailure.self) == nil {
                matched = true
                break
            }
            if !matched {
                return explainNoMatch(instance, node.keywords.anyOf, as: F.self)
                    ?? F(message: "must match at least one of \(node.keywords.anyOf.count) schemas")
            }
        }
        if !node.keywords.oneOf.isEmpty {
            var matches = 0
            for branch in node.keywords.oneOf where evaluate(branch, instance, as: BareSchemaFailure.self) == nil {
                matches += 1
                // Two settle it; a message counts them all.
                if matches == 2, !F.carriesDetail { break }
            }
            if matches != 1 {
                if matches == 0, let failure = explainNoMatch(instance, node.keywords.oneOf, as: F.self) { return failure }
                return F(message: "must match exactly one of \(node.keywords.oneOf.count) schemas (matched \(matches))")
            }
        }
        if let not = node.keywords.not, evaluate(not, instance, as: BareSchemaFailure.self) == nil {
            return F(message: "must not match the schema in \"not\"")
        }
        return nil
    }

    /// When no branch matched but exactly one admits the instance's type, that branch's own failure
    /// says more than "must match one of": `{"anyOf": [{"type": "string", "minLength": 1}, {"type":
    /// "null"}]}` against `""` reports "must be at least 1 character long".
    private func explainNoMatch<F: SchemaFailure>(_ instance: JSONValue, _ branches: [Int], as _: F.Type) -> F? {
        guard F.carriesDetail else { return nil }
        var candidate: Int?
        for branch in branches where admitsType(branch, instance) {
            guard candidate == nil else { return nil }
            candidate = branch
        }
        guard let candidate else { return nil }
        return evaluate(candidate, instance, as: F.self)
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
