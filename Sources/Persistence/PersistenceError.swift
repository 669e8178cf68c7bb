import GRDB
import JSON

/// Why a persistence operation failed: bad input (at a JSON Pointer into what the caller handed
/// in) or a failure of the database itself, with a stable `reason`.
///
/// Services map `.invalid` to `E_BAD_PARAMS` and `.failed` to `E_FAILED` with `details.reason`.
public enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is wrong; `path` points at the field, `message` says what was expected.
    case invalid(path: String, message: String)
    /// The operation failed: `reason` is one of "constraint", "migration", "unknown_database",
    /// "unknown_table", "sqlite", "io", "schema".
    case failed(reason: String, message: String, details: JSONObject)

    public static func failed(_ reason: String, _ message: String) -> PersistenceError {
        .failed(reason: reason, message: message, details: [:])
    }

    public var description: String {
        switch self {
        case .invalid(let path, let message): "\(path): \(message)"
        case .failed(let reason, let message, _): "\(reason): \(message)"
        }
    }

    /// Maps an error thrown while touching SQLite: constraint violations keep their own reason.
    public static func wrap(_ error: any Error) -> PersistenceError {
        if let error = error as? PersistenceError { return error }
        if let error = error as? DatabaseError {
            let message = error.message ?? "\(error.resultCode)"
            if error.resultCode == .SQLITE_CONSTRAINT {
                return .failed(reason: "constraint", message: message,
                               details: ["sqliteCode": .number(Double(error.extendedResultCode.rawValue))])
            }
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                return .failed(reason: "busy", message: message, details: [:])
            }
            return .failed(reason: "sqlite", message: message,
                           details: ["sqliteCode": .number(Double(error.extendedResultCode.rawValue))])
        }
        if error is CancellationError { return .failed("cancelled", "the operation was cancelled") }
        return .failed("internal", String(describing: error))
    }
}
