import GRDB
import GRDBSQLite
import JSON

/// Why a persistence operation failed: bad input (at a JSON Pointer into what the caller handed
/// in) or a failure of the database itself, with a stable `reason`.
///
/// Services map `.invalid` to `E_BAD_PARAMS` and `.failed` to `E_FAILED` with `details.reason`.
public enum PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is wrong; `path` points at the field, `message` says what was expected.
    case invalid(path: String, message: String)
    /// The operation failed: `reason` is one of "constraint", "migration", "unknown_database",
    /// "unknown_table", "sqlite", "schema", and for the storage under the database "disk_full"
    /// (the disk or the file's page limit), "io" (an I/O error, a file that cannot be opened) and
    /// "read_only" (the file or its file system cannot be written).
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

    /// The reason for a SQLite result code (primary or extended) that is the storage's doing:
    /// "disk_full", "io" or "read_only"; nil for any other.
    public static func storageReason(_ code: Int32) -> String? {
        switch code & 0xff {
        case SQLITE_FULL: "disk_full"
        case SQLITE_IOERR, SQLITE_CANTOPEN: "io"
        case SQLITE_READONLY: "read_only"
        default: nil
        }
    }

    /// A database file that could not be opened: reason "io", unless the storage says better.
    public static func cannotOpen(_ path: String, _ error: any Error) -> PersistenceError {
        let code = (error as? DatabaseError)?.resultCode.rawValue ?? SQLITE_CANTOPEN
        return .failed(reason: storageReason(code) ?? "io", message: "cannot open \(path): \(error)", details: [:])
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
            // The storage under the database: the write is rolled back, the file stays intact,
            // and the same call succeeds once the condition is gone.
            if let reason = storageReason(error.resultCode.rawValue) {
                return .failed(reason: reason, message: message,
                               details: ["sqliteCode": .number(Double(error.extendedResultCode.rawValue))])
            }
            return .failed(reason: "sqlite", message: message,
                           details: ["sqliteCode": .number(Double(error.extendedResultCode.rawValue))])
        }
        if error is CancellationError { return .failed("cancelled", "the operation was cancelled") }
        return .failed("internal", String(describing: error))
    }
}
