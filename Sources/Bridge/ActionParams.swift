import JSON

/// An action's params as a typed value, or an object nested in them (a batch's items, a
/// transaction's ops): decoded once, before the action's body runs, instead of fields read by
/// hand with made-up defaults.
///
/// The types are written by hand beside each service (`StorageParams.swift`...), not generated
/// from the contracts: a contract says what JS may send, a params type says what the service
/// needs, and the two differ on purpose in places a schema cannot say (exactly one of `data` and
/// `patch`; a press names an id, a key names a key; `setMany` items take the call's bucket).
/// Required fields are non-optional, optional ones optional, defaults the contract states are
/// applied here. A type that drifts from its contract is caught by the service's tests through
/// the bridge, which validate the contract first and then decode.
///
/// No `Codable`: a `JSONDecoder` costs more than the few dictionary look-ups of a hot action
/// (`kv.get` answers 600k hits a second), and its errors do not carry our JSON Pointer paths.
///
/// ```swift
/// struct KeyValueGetParams: ActionParams {
///     let bucket: String
///     let key: String
///
///     init(from params: ParamsReader) throws(BridgeError) {
///         bucket = try params.required("bucket")
///         key = try params.required("key")
///     }
/// }
///
/// "get": .inline(KeyValueGetParams.self) { call, params in
///     try store(call).get(bucket: params.bucket, key: params.key)?.jsonValue ?? .null
/// }
/// ```
public protocol ActionParams: ParamValue {
    init(from params: ParamsReader) throws(BridgeError)
}

extension ActionParams {
    public static var expected: String { "an object" }

    /// `json`, which must be an object, decoded at `path`; `.root` for a call's whole params.
    @inlinable
    public init(param json: JSONValue, at path: ParamsPath) throws(BridgeError) {
        guard case .object(let object) = json else { throw Self.mismatch(json, at: path) }
        try self.init(from: ParamsReader(object, at: path))
    }
}
