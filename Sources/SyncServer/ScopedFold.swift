import HTTPServing
import JSON
import SyncProtocol

/// What folding one op does to the materialized state under the scope rules, decided without a
/// database: every store reads the row (or a batch's rows), asks here, and writes what it is told,
/// so that SQLite and PostgreSQL refuse, file and fold exactly alike.
///
/// ```swift
/// let decision = try ScopedFold.row(op, current: row, scopeBefore: scope, scopeColumn: "teamId", device: device, at: "/ops/0")
/// if let write = decision.write { /* store write.row in write.scope */ }
/// // log the op with decision.folded.scopeBefore and image, filed under decision.folded.keys
/// ```
enum ScopedFold {
    /// What the log must know of one folded op: the row's scope before it, the keys it is filed
    /// under (see ``LogKey``), and the row as it now is when the op moved it into a scope (a device
    /// of that scope did not have the row, so it gets the whole row rather than the op).
    struct Folded {
        var scopeBefore: String?
        var keys: [String]
        var image: MaterializedRow?
    }

    /// A row op's effect: the row to store and its scope (nil when the fold changes nothing), and
    /// what the log records.
    struct RowDecision {
        var write: (row: MaterializedRow, scope: String?)?
        var folded: Folded
    }

    /// The partition a row of a table lives in: "" for scoped tables, the user's for the others.
    static func partition(scopeColumn: String?, device: DeviceIdentity) -> String {
        scopeColumn == nil ? device.user : ""
    }

    /// Folds a row op (insert, update, delete) into `current`, in scope `scopeBefore`, after
    /// checking that the row it reads and the row it leaves are in the device's scopes.
    ///
    /// A delete of a row the server does not have must name the scope the row would have
    /// (`data: {SCOPE_COLUMN: "team:t1"}`), and is checked as an insert into it: its tombstone is
    /// filed there. One filed in no scope would let anyone pre-delete an id in another tenant's
    /// scope, stamped far in the future, so that its owner's insert is answered `applied` and never
    /// shows. A row of a scoped table that has no scope (an old such tombstone, or a row of the
    /// insecure server's user, whose unscoped tables share partition "") is no scope's: only a
    /// device that sees every scope may touch it.
    static func row(_ op: SyncOperation, current: MaterializedRow?, scopeBefore before: String?, partition: String,
                    scopeColumn: String?, device: DeviceIdentity, at pointer: String) throws -> RowDecision {
        let changed = OperationFold.apply(op, to: current)
        guard let scopeColumn else {
            return RowDecision(write: changed.map { ($0, nil) }, folded: Folded(scopeBefore: nil, keys: [LogKey.user(partition)], image: nil))
        }
        if let before {
            guard device.sees(scope: before) else { throw outOfScope(op, at: pointer) }
        } else if current != nil, device.scopes != nil {
            throw outOfScope(op, at: pointer)
        }
        var after = before
        if op.type == .delete {
            // A delete never moves a row; one of a row the server does not have puts it where it names.
            if before == nil {
                switch op.data?[scopeColumn] {
                case .string(let scope)?: after = scope
                case nil: throw outOfScope(op, at: pointer)
                case let other?: throw expectedScope(other, column: scopeColumn, at: pointer)
                }
            }
        } else if let changed {
            guard case .string(let scope)? = changed.data[scopeColumn] else {
                throw expectedScope(changed.data[scopeColumn], column: scopeColumn, at: pointer)
            }
            after = scope
        }
        if let after, !device.sees(scope: after) { throw outOfScope(op, at: pointer) }
        var keys = ByteString.distinct([before, after].compactMap { $0 }.map(LogKey.scope))
        if keys.isEmpty { keys = [LogKey.user(device.user)] }
        let moved = before != nil && !ByteString.same(after, before) ? changed : nil
        return RowDecision(write: changed.map { ($0, after) }, folded: Folded(scopeBefore: before, keys: keys, image: moved))
    }

    static func expectedScope(_ value: JSONValue?, column scopeColumn: String, at pointer: String) -> SyncServerError {
        SyncServerError.invalid(JSONPointer.appending(pointer + "/data", key: scopeColumn),
                                "expected the row's scope (\(scopeColumn), a string the token grants), got \(value?.typeName ?? "nothing")")
    }

    /// A batch op's change, its filter and where it is filed: the live rows of `partition` in the
    /// table, of one scope when the table is scoped (checked by
    /// ``batchScope(_:scopeColumn:device:opId:at:)``). Each store reads those rows, folds the change
    /// into each with ``OperationFold``, and writes back the ones it changes, each in its scope.
    static func batch(_ op: SyncOperation, partition: String, scopeColumn: String?, device: DeviceIdentity,
                      at pointer: String) throws -> (change: BatchChange, scope: String?, folded: Folded) {
        let change = try BatchChange(value: op.data.map(JSONValue.object), at: pointer + "/data")
        guard let scopeColumn else { return (change, nil, Folded(scopeBefore: nil, keys: [LogKey.user(partition)], image: nil)) }
        let scope = try batchScope(change, scopeColumn: scopeColumn, device: device, opId: op.opId, at: pointer)
        return (change, scope, Folded(scopeBefore: nil, keys: [LogKey.scope(scope)], image: nil))
    }

    /// A batch on a scoped table must name its scope (`where: {SCOPE_COLUMN: "team:t1"}`), one the
    /// token grants, and leave it alone, so that it never touches a row outside it and every
    /// replica of that scope folds it to the same rows.
    static func batchScope(_ change: BatchChange, scopeColumn: String, device: DeviceIdentity, opId: String, at pointer: String) throws -> String {
        let path = JSONPointer.appending(pointer + "/data/where", key: scopeColumn)
        guard let condition = change.conditions.first(where: { ByteString($0.field) == ByteString(scopeColumn) && $0.comparison == .eq }),
              case .string(let scope) = condition.value else {
            throw refusal("\(SyncServerError.readable(path)): a batch on a scoped table must select one scope by equality", path: path, opId: opId)
        }
        guard device.sees(scope: scope) else {
            throw refusal("\(SyncServerError.readable(path)): scope \(scope) is not granted by the token", path: path, opId: opId)
        }
        if let moved = change.set[scopeColumn], !Self.isString(moved, scope) {
            throw refusal("\(SyncServerError.readable(pointer))/data/set/\(scopeColumn): a batch may not move rows out of their scope",
                          path: JSONPointer.appending(pointer + "/data/set", key: scopeColumn), opId: opId)
        }
        return scope
    }

    /// The scope column `op` declares, checked against `registered`, the one its table was first
    /// synced with by the device's user (nil: the table is new to the user, and `op` registers it):
    /// a table is scoped by one column, or by none, for every device of one user. Other users may
    /// sync it otherwise: rows of scoped tables all live in partition "", each op checked against
    /// the row's stored scope, so that their shapes cannot mix into a leak.
    static func scopeColumn(of op: SyncOperation, registered: String??, at pointer: String) throws -> String? {
        guard let registered else { return op.scopeColumn }
        guard ByteString.same(registered, op.scopeColumn) else {
            let expected = registered.map { "scopeColumn \"\($0)\"" } ?? "no scopeColumn"
            throw SyncServerError.invalid(pointer + "/scopeColumn", "table \(op.table) is synced with \(expected) by this token's user")
        }
        return registered
    }

    /// The one refusal of a row op for its scope, whatever the row is: in another tenant's scope,
    /// not there, or about to be put in a scope the token does not grant. It names what the op
    /// named and nothing of the server's, so that no tenant learns where another's rows are.
    static func outOfScope(_ op: SyncOperation, at pointer: String) -> SyncServerError {
        let hint = op.type == .delete && op.scopeColumn != nil
            ? " (a delete of a row the server does not have names the row's scope: data.\(op.scopeColumn ?? ""))" : ""
        return refusal("\(SyncServerError.readable(pointer)): op \(op.opId) on \(op.table)/\(op.dataId) refused: "
                       + "the row is not in a scope the token grants" + hint, path: pointer, opId: op.opId)
    }

    /// A refusal for scope (`forbidden`, reason `scope`) that names the op refused, so that its
    /// device fails that op alone and sends the packet's others again; inside a held packet, the
    /// packet is rejected with it.
    static func refusal(_ message: String, path: String, opId: String) -> SyncServerError {
        var refusal = SyncServerError(.forbidden, message, path: path, reason: .scope)
        refusal.opId = opId
        return refusal
    }

    /// Whether `value` is the string `text`, byte for byte.
    static func isString(_ value: JSONValue, _ text: String) -> Bool {
        if case .string(let string) = value { return ByteString(string) == ByteString(text) }
        return false
    }

    /// A log entry as `device` receives it: the op, or, when the op moved the row into a scope of
    /// the device from one it does not see, the row as the op left it (an insert, or a delete for a
    /// tombstone, with the op's stamp), since the device never had the row the op changes.
    static func logged(seq: Int, deviceId: String, opId: String, dataId: String, table: String, typeName: String, dataText: String?,
                       dependencyId: String?, timestamp: Double, deviceTimestamp: Double?, scopeBefore: String?, imageText: String?,
                       for device: DeviceIdentity) throws -> LoggedOperation {
        var data: JSONObject?
        if let dataText {
            guard case .object(let object)? = try? JSONParser.parse(dataText) else {
                throw SyncServerError(.internalError, "logged op \(opId) has data that is not a JSON object")
            }
            data = object
        }
        guard var type = SyncOperationType(rawValue: typeName) else {
            throw SyncServerError(.internalError, "logged op \(opId) has an unknown type \(typeName)")
        }
        if let imageText, let scopeBefore, !device.sees(scope: scopeBefore), case .object(let image)? = try? JSONParser.parse(imageText) {
            let deleted = image["deleted"]?.boolValue == true
            type = deleted ? .delete : .insert
            data = deleted ? nil : image["data"]?.objectValue
        }
        let op = SyncOperation(opId: opId, dataId: dataId, table: table, type: type, data: data, dependencyId: dependencyId, timestamp: timestamp)
        return LoggedOperation(seq: seq, deviceId: deviceId, operation: op, deviceTimestamp: deviceTimestamp ?? timestamp)
    }
}
