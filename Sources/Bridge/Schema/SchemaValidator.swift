// Schema: the JSON Schema (draft 2020-12) validator that checks a bridge call's params against its
// contract before dispatch, and results after it in test mode.
//
// It runs before every call, so a schema is compiled once into a table of nodes and validation
// walks that table: no keyword lookups by name, no allocation until something fails. It must never
// fetch anything (references resolve inside the schema, to the bundled metaschemas, or to what the
// caller's resolver lends), and never import Foundation.

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
/// The whole of draft 2020-12: the core, applicator, unevaluated, validation, meta-data, format
/// and content vocabularies. References resolve within the schema's document (JSON Pointers,
/// `$id`s embedded anywhere, `$anchor`, `$dynamicRef`/`$dynamicAnchor`, relative and URN URIs),
/// to the bundled 2020-12 metaschemas, and to what a ``SchemaResolver`` lends; nothing is fetched.
/// `pattern` and `patternProperties` are ECMA-262 regular expressions (``SchemaPattern``).
/// `format` annotates unless ``SchemaOptions/formatAssertion`` or the schema's dialect (a
/// metaschema whose `$vocabulary` lists format-assertion) says it asserts. `$schema` picks the
/// dialect: a metaschema's `$vocabulary` turns vocabularies off, and a keyword of a vocabulary that
/// is off is ignored, like any unknown keyword.
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
    public init(schema: JSONValue, options: SchemaOptions = SchemaOptions()) throws(SchemaError) {
        evaluator = SchemaEvaluator(try SchemaCompiler.compile(schema, options: options))
    }

    /// Compiles the schema at `pointer` inside `document`, as a contract holds an action's params
    /// at `/actions/<name>/params`: its `$ref`s resolve against the whole document, so that
    /// `{"$ref": "#/$defs/node"}` names the contract's own `$defs`. A schema with an `$id` of its
    /// own is the root its references resolve in instead, as a schema compiled alone is.
    ///
    /// Errors name places in the document (`/actions/mount/params/properties/tree/type: ...`);
    /// violations name places in the instance, as always.
    public init(document: JSONValue, at pointer: String, options: SchemaOptions = SchemaOptions()) throws(SchemaError) {
        evaluator = SchemaEvaluator(try SchemaCompiler.compile(document, at: pointer, options: options))
    }

    /// The reference tokens of the JSON Pointer a local `$ref` designates, read as the validator
    /// reads it: `"#/$defs/a%20b"` gives `["$defs", "a b"]`, and so does `baseURI + "#/$defs/a%20b"`.
    /// Nil for a reference into another document or a fragment that is not a JSON Pointer.
    public static func localReferenceTokens(_ reference: String, baseURI: String) -> [String]? {
        guard let hash = reference.firstIndex(of: "#") else { return nil }
        let base = reference[..<hash]
        guard base.isEmpty || base == baseURI else { return nil }
        return SchemaCompiler.pointerTokens(fragment: reference[reference.index(after: hash)...])
    }

    /// The first failure, or nil when `instance` is valid.
    ///
    /// Failures are found in a fixed order: `type` first; then `enum`, `const` and the keywords for
    /// the instance's kind (an object's members in the instance's order, then `required`); then
    /// `$ref`, `$dynamicRef`, `allOf`, `anyOf`, `oneOf`, `not`, `if`; `unevaluated*` last. When no
    /// branch of an `anyOf` or `oneOf` matches, the failure of the most specific branch is reported.
    public func firstViolation(of instance: JSONValue) -> SchemaViolation? {
        // Most instances pass (the bridge asks before every call), and the evaluator specialized
        // for `isValid`, which an `if` or `anyOf` inside runs anyway, settles them alone: on the
        // bridge, where the evaluator's code is cold between calls, that took about a tenth less
        // time than also running the copy that keeps messages. Only a failure is evaluated twice.
        guard !isValid(instance) else { return nil }
        return evaluator.evaluate(0, instance, nil, as: TracedSchemaFailure.self)?.violation
    }

    public func isValid(_ instance: JSONValue) -> Bool {
        evaluator.evaluate(0, instance, nil, as: BareSchemaFailure.self) == nil
    }
}
