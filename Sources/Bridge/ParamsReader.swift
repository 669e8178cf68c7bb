import JSON

/// One object of a call's params, and where it sits in them: what an ``ActionParams`` type
/// decodes itself from.
///
/// Each field is read by its type, required or optional, and the type named by the property it
/// is assigned to:
///
/// ```swift
/// struct KeyValueKeysParams: ActionParams {
///     let bucket: String
///     let prefix: String?
///     let limit: Int?
///
///     init(from params: ParamsReader) throws(BridgeError) {
///         bucket = try params.required("bucket")
///         prefix = try params.optional("prefix")
///         limit = try params.optional("limit")
///     }
/// }
/// ```
///
/// The bridge checks params against the action's contract before the service sees them, so when
/// the contract and the type agree these reads never fail. When they disagree (or a test calls a
/// service directly), a read throws `E_BAD_PARAMS` naming the field's path and what its type
/// expected, e.g. `params/items/3/key: expected a string, got number`, instead of the service
/// going on with a made-up default.
public struct ParamsReader: Sendable {
    /// The object's members.
    public let object: JSONObject
    /// Where the object sits in the call's params.
    public let path: ParamsPath

    public init(_ object: JSONObject, at path: ParamsPath = .root) {
        self.object = object
        self.path = path
    }

    /// The field `key`, which must be present and hold a `Value`.
    @inlinable
    public func required<Value: ParamValue>(_ key: String, as _: Value.Type = Value.self) throws(BridgeError) -> Value {
        guard let json = object[key] else {
            throw BridgeError.badParams(path.appending(key: key).pointer, "missing required property \(JSONValue.string(key)) (expected \(Value.expected))")
        }
        return try Value(param: json, at: path.appending(key: key))
    }

    /// The field `key` when present, which must then hold a `Value`; nil when absent.
    ///
    /// A present `null` is a value like any other: a field of type `JSONValue` reads it as
    /// `.null`, one of type `String` refuses it (as the contract does).
    @inlinable
    public func optional<Value: ParamValue>(_ key: String, as _: Value.Type = Value.self) throws(BridgeError) -> Value? {
        guard let json = object[key] else { return nil }
        return try Value(param: json, at: path.appending(key: key))
    }

    /// The array `key`, which must be present, each element an object decoded by `decode` from a
    /// reader at its own path: for elements that need more than their own fields (`setMany`'s
    /// items take the call's bucket when they name none). The params' array is read in place;
    /// the one array built is the decoded one.
    @inlinable
    public func required<Element>(_ key: String, each decode: (ParamsReader) throws(BridgeError) -> Element) throws(BridgeError) -> [Element] {
        guard let json = object[key] else {
            throw BridgeError.badParams(path.appending(key: key).pointer, "missing required property \(JSONValue.string(key)) (expected an array of objects)")
        }
        let base = ParamsPath(path.appending(key: key).pointer)
        guard case .array(let elements) = json else { throw [JSONObject].mismatch(json, at: base) }
        var decoded: [Element] = []
        decoded.reserveCapacity(elements.count)
        for i in elements.indices {
            guard case .object(let element) = elements[i] else { throw JSONObject.mismatch(elements[i], at: base.appending(index: i)) }
            decoded.append(try decode(ParamsReader(element, at: base.appending(index: i))))
        }
        return decoded
    }

    /// Whether the field `key` is present, for rules the contract states in words (exactly one of
    /// two fields).
    public func contains(_ key: String) -> Bool {
        object[key] != nil
    }
}
