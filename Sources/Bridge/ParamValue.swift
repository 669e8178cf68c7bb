import JSON

/// A type one field of a call's params can hold: what ``ParamsReader/required(_:as:)`` and
/// ``ParamsReader/optional(_:as:)`` read.
///
/// `String`, `Int`, `Double`, `Bool`, `JSONObject`, `JSONValue` (anything, for free-form fields such
/// as a filter or a record), arrays of any of these, ``ActionParams`` types (nested objects) and
/// string enums that list their cases conform:
///
/// ```swift
/// enum Keep: String, CaseIterable, ParamValue { case local, remote }
/// let keep: Keep = try params.required("keep")   // "expected one of local, remote, got \"both\""
/// ```
public protocol ParamValue: Sendable {
    /// What a field of this type holds, for messages: "a string", "one of local, remote".
    static var expected: String { get }
    /// `json` as this type, or `E_BAD_PARAMS` at `path` saying what was expected.
    init(param json: JSONValue, at path: ParamsPath) throws(BridgeError)
}

extension ParamValue {
    /// `E_BAD_PARAMS` at `path`: `json` is not what this type expects.
    public static func mismatch(_ json: JSONValue, at path: ParamsPath) -> BridgeError {
        let got = switch json {
        case .string(let text): text.count <= 40 ? JSONValue.string(text).description : "a string of \(text.count) characters"
        case .number(let n): JSONValue.number(n).description
        default: json.typeName
        }
        return BridgeError.badParams(path.pointer, "expected \(expected), got \(got)")
    }
}

extension String: ParamValue {
    public static var expected: String { "a string" }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .string(let text) = json else { throw Self.mismatch(json, at: path) }
        self = text
    }
}

extension Int: ParamValue {
    public static var expected: String { "an integer" }

    /// Any integral number that fits an `Int`, as the contract's `integer` allows (not only the
    /// exact doubles below 2^53 that `JSONValue.intValue` reads).
    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .number(let n) = json, let int = Int(exactly: n) else { throw Self.mismatch(json, at: path) }
        self = int
    }
}

extension Double: ParamValue {
    public static var expected: String { "a number" }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .number(let n) = json else { throw Self.mismatch(json, at: path) }
        self = n
    }
}

extension Bool: ParamValue {
    public static var expected: String { "a boolean" }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .bool(let flag) = json else { throw Self.mismatch(json, at: path) }
        self = flag
    }
}

extension JSONObject: ParamValue {
    public static var expected: String { "an object" }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .object(let object) = json else { throw Self.mismatch(json, at: path) }
        self = object
    }
}

/// Any value: a free-form field (a filter, a record, a view tree) that the service reads itself.
extension JSONValue: ParamValue {
    public static var expected: String { "a value" }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        self = json
    }
}

extension Array: ParamValue where Element: ParamValue {
    public static var expected: String { "an array" }

    /// Each element decoded at its own path (`/items/3`). The array of values is read in place:
    /// the one array built is the typed one, and none for `[JSONValue]`.
    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .array(let elements) = json else { throw Self.mismatch(json, at: path) }
        // Free-form elements need no decoding: the params' own array is the answer.
        if Element.self == JSONValue.self {
            self = unsafeBitCast(elements, to: [Element].self)
            return
        }
        // Joined once here, so that no element's path is built unless it is wrong.
        let base = ParamsPath(path.pointer)
        var decoded: [Element] = []
        decoded.reserveCapacity(elements.count)
        for i in elements.indices {
            decoded.append(try Element(param: elements[i], at: base.appending(index: i)))
        }
        self = decoded
    }
}

extension ParamValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static var expected: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }

    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .string(let raw) = json, let value = Self(rawValue: raw) else { throw Self.mismatch(json, at: path) }
        self = value
    }
}
