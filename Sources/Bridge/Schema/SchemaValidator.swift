// Schema: the JSON Schema (draft 2020-12) validator that checks a bridge call's params against its
// contract before dispatch, and results after it in test mode.
//
// It runs before every call, so a schema is compiled once into a table of nodes and validation
// walks that table: no keyword lookups by name, no allocation until something fails. It must never
// fetch anything (only references inside the schema resolve), never import Foundation, and never
// silently skip a draft 2020-12 keyword it does not implement: compiling such a schema fails.

import JSON

/// A compiled draft 2020-12 schema that checks JSON values.
///
/// ```swift
/// let validator = try SchemaValidator(schema: try JSONParser.parse("""
///     {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
///     """))
/// validator.isValid(["title": "milk"])            // true
/// validator.firstViolation(of: ["title": 3])       // /title: expected string, got number
/// ```
///
/// Supported: `type`, `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `minLength`, `maxLength` (in code points), `pattern` (an unanchored search),
/// `minItems`, `maxItems`, `prefixItems`, `items`, `properties`, `required`,
/// `additionalProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `$ref` to JSON Pointers within the
/// schema (recursion included), `$defs`, and boolean schemas. Annotations and unknown keywords are
/// ignored; draft 2020-12 keywords outside this list are refused at compile time.
///
/// Binary values (``JSONValue/bytes``) pass a schema without `type`, and `type: "string"` only
/// where the same schema says `"format": "binary"`.
public struct SchemaValidator: Sendable {
    private let evaluator: SchemaEvaluator

    /// Compiles a draft 2020-12 schema.
    ///
    /// - Throws: ``SchemaError`` naming the place in the schema that is malformed and what was
    ///   expected there, e.g. `/properties/a/type: expected one of array, boolean, integer, null,
    ///   number, object, string`.
    public init(schema: JSONValue) throws(SchemaError) {
        evaluator = SchemaEvaluator(nodes: try SchemaCompiler.compile(schema))
    }

    /// The first failure, or nil when `instance` is valid.
    ///
    /// Failures are found in a fixed order: `type` first; then `enum`, `const` and the keywords for
    /// the instance's kind (an object's members in the instance's order, then `required`); then
    /// `$ref`, `allOf`, `anyOf`, `oneOf`, `not`.
    public func firstViolation(of instance: JSONValue) -> SchemaViolation? {
        evaluator.evaluate(0, instance, as: TracedSchemaFailure.self)?.violation
    }

    public func isValid(_ instance: JSONValue) -> Bool {
        evaluator.evaluate(0, instance, as: BareSchemaFailure.self) == nil
    }
}
