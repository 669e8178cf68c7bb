import JSON

/// A call's failure as JS receives it: `{code, message, target, action, path?, details?}`.
///
/// Services throw it (usually through ``ServiceError``'s helpers); any other error a service throws
/// becomes `E_FAILED` with `details.reason` "internal".
public struct BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: BridgeErrorCode
    public var message: String
    /// A JSON Pointer into the params (`/records/2/title`) for `E_BAD_PARAMS`.
    public var path: String?
    public var details: JSONValue?

    public init(_ code: BridgeErrorCode, _ message: String, path: String? = nil, details: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.details = details
    }

    /// `E_BAD_PARAMS` at `path`: "expected X, got Y" style messages read best.
    public static func badParams(_ path: String, _ message: String) -> BridgeError {
        BridgeError(.badParams, path.isEmpty ? "params: \(message)" : "params\(path): \(message)", path: path)
    }

    /// `E_FAILED` with a machine-readable `details.reason`.
    public static func failed(reason: String, _ message: String, details: JSONObject = [:]) -> BridgeError {
        var details = details
        details["reason"] = .string(reason)
        return BridgeError(.failed, message, details: .object(details))
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// Runs `body`: a ``BridgeError`` it throws passes through, any other error becomes what
    /// `map` makes of it. How a service turns its lower layers' errors into its answer.
    public static func mapping<T>(_ map: (any Error) -> BridgeError, _ body: () throws -> T) throws(BridgeError) -> T {
        do { return try body() } catch let error as BridgeError { throw error } catch { throw map(error) }
    }

    public static func mapping<T>(_ map: (any Error) -> BridgeError, _ body: () async throws -> T) async throws(BridgeError) -> T {
        do { return try await body() } catch let error as BridgeError { throw error } catch { throw map(error) }
    }

    /// The error object sent to JS, before `target` and `action` are added.
    public func jsonValue(target: String, action: String) -> JSONValue {
        var object = JSONObject(minimumCapacity: 6)
        object.appendUnique("code", .string(code.rawValue))
        object.appendUnique("message", .string(message))
        object.appendUnique("target", .string(target))
        object.appendUnique("action", .string(action))
        if let path { object.appendUnique("path", .string(path)) }
        if let details { object.appendUnique("details", details) }
        return .object(object)
    }
}
