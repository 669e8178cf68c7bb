import JSON
import Persistence

/// How a table takes part in sync, as its schema says:
/// `"sync": {"mode": "oneWay" | "twoWay", "conflict": "lastWriteWins" | "ask", "scope": COLUMN}`.
///
/// `scope` names the TEXT column that holds each row's scope (`"team:t1"`, `"user:alice"`): the
/// server takes a write only in a scope the device's token grants, and a device receives only its
/// scopes' rows. A table without `scope` is shared by every device of the same user.
///
/// - one-way (chat messages): rows carry `_identifier`, `_dirty` and `_deleted`; deletes are
///   logical until the server confirms them; the client pushes and never pulls.
/// - two-way (tasks): every local write becomes an operation in the to-sync table; pulled
///   operations go through the to-execute table and are rebased under the ones not yet pulled.
public struct SyncPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable {
        case oneWay, twoWay
    }

    public enum Conflict: String, Sendable {
        /// The write the server logs last wins (its clock stamps each op as it logs it), as the
        /// server's fold decides.
        case lastWriteWins
        /// A remote change to a row with local changes not yet sent is recorded for `sync.resolve`.
        case ask
    }

    public var mode: Mode
    public var conflict: Conflict
    /// The column holding each row's scope, for a scoped table.
    public var scope: String?

    /// The bookkeeping columns a one-way table gets.
    public static let oneWayColumns = [("_identifier", "TEXT"), ("_dirty", "INTEGER NOT NULL DEFAULT 0"), ("_deleted", "INTEGER NOT NULL DEFAULT 0")]

    static func isBookkeeping(_ column: String) -> Bool { oneWayColumns.contains { $0.0 == column } }

    public init(mode: Mode, conflict: Conflict = .lastWriteWins, scope: String? = nil) {
        self.mode = mode
        self.conflict = conflict
        self.scope = scope
    }

    static func parse(_ value: JSONValue, path: String) throws(Persistence.PersistenceError) -> SyncPolicy {
        guard let object = value.objectValue else {
            throw .invalid(path: path, message: "expected {mode: \"oneWay\" | \"twoWay\", conflict?: \"lastWriteWins\" | \"ask\", scope?: COLUMN}, got \(value.typeName)")
        }
        for key in object.keys where !["mode", "conflict", "scope"].contains(key) {
            throw .invalid(path: JSONPointer.appending(path, key: key), message: "unknown sync property; expected mode, conflict or scope")
        }
        var scope: String?
        if let given = object["scope"] {
            guard case .string(let column) = given, !column.isEmpty else {
                throw .invalid(path: path + "/scope", message: "expected the name of the column that holds each row's scope, got \(given.typeName)")
            }
            scope = column
        }
        guard let mode = object["mode"]?.stringValue.flatMap(Mode.init(rawValue:)) else {
            throw .invalid(path: path + "/mode", message: "expected \"oneWay\" or \"twoWay\"")
        }
        var conflict = Conflict.lastWriteWins
        if let given = object["conflict"] {
            guard let parsed = given.stringValue.flatMap(Conflict.init(rawValue:)) else {
                throw .invalid(path: path + "/conflict", message: "expected \"lastWriteWins\" or \"ask\"")
            }
            conflict = parsed
        }
        return SyncPolicy(mode: mode, conflict: conflict, scope: scope)
    }

    var jsonValue: JSONValue {
        var object: JSONObject = ["mode": .string(mode.rawValue), "conflict": .string(conflict.rawValue)]
        if let scope { object["scope"] = .string(scope) }
        return .object(object)
    }
}
