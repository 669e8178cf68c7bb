import Bridge
import JSON

/// The JSON Schema 2020-12 compiler and evaluator, schema and instance both from the input:
/// `[schema, instance]`, or `[schema, instance, true]` to assert formats. The schema is also
/// compiled where it sits in the input, as a contract's action schemas are (`/0`). Whatever
/// compiles, `isValid` and `firstViolation` agree on every instance, and a violation's path
/// points into the instance.
enum SchemaFuzzTarget {
    static let target = FuzzTarget(name: "schema", summary: "SchemaValidator compile + validate; isValid agrees with firstViolation") { input throws(FuzzFinding) in
        try run(input)
    }

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let document = try? JSONParser.parse(input), case .array(let items) = document, items.count >= 2 else { return }
        let options = SchemaOptions(formatAssertion: items.count > 2 && items[2] == .bool(true))
        if let validator = try? SchemaValidator(schema: items[0], options: options) {
            try check(validator, items[1])
            // The schema against itself: an instance it knows well.
            try check(validator, items[0])
        }
        if let validator = try? SchemaValidator(document: document, at: "/0", options: options) {
            try check(validator, items[1])
        }
    }

    static func check(_ validator: SchemaValidator, _ instance: JSONValue) throws(FuzzFinding) {
        let valid = validator.isValid(instance)
        let violation = validator.firstViolation(of: instance)
        guard valid == (violation == nil) else {
            throw FuzzFinding("schema", "isValid says \(valid) but firstViolation says \(violation.map(String.init(describing:)) ?? "none") for \(instance)")
        }
        if let violation, JSONPointer.resolve(violation.path, in: instance) == nil, !violation.message.contains("missing") {
            // A missing required property is named by the pointer it would have; anything else
            // must point at a value that exists.
            let parent = violation.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            guard JSONPointer.resolve(parent, in: instance) != nil else {
                throw FuzzFinding("schema", "the violation's path \"\(violation.path)\" is not in the instance \(instance): \(violation)")
            }
        }
    }
}
