import JSON

/// The rule that turns the op log into the materialized state. Every replica that folds the log in
/// `seq` order with this rule ends with the server's state, whatever order the ops were made in.
///
/// Rows are keyed by (table, dataId) and stamped with the (timestamp, opId) of the op that last
/// changed them. The timestamps of logged ops are the server's (``LoggedOperation``): it stamps
/// each op as it logs it, later than the one before, so of two writes to a row the one the server
/// logged last wins, whatever the devices' clocks said. An op **wins** over a row when `(op.timestamp, op.opId) > (row.timestamp,
/// row.opId)`: timestamps compared as numbers, ties broken by opId in UTF-8 byte order (code point
/// order; SQLite's BINARY collation; plain string order for ASCII ids such as UUIDs). A missing row
/// loses to every op. An op that wins changes the row and stamps it with its own (timestamp, opId);
/// an op that loses changes nothing, but stays in the log all the same.
///
/// - `insert`: the row's data becomes `op.data` and it is live (`deleted: false`); creates the row.
/// - `update`: `op.data`'s members are merged into the row's data (a member set to null is kept as
///   null, not removed); `deleted` is left as it is, so an update never revives a deleted row;
///   creates a live row with `op.data` when there is none.
/// - `delete`: the row becomes a tombstone (`deleted: true`), its data kept as it was; with no row,
///   a tombstone with data `{}` is created, so an older insert that arrives later cannot revive it.
/// - `batch` (`data: {where, set}`): every live row of `op.table` whose data matches `where` (see
///   ``BatchCondition``) and that the op wins over gets `set` merged in and the op's stamp. It
///   creates no rows and passes over tombstones.
public enum OperationFold {
    /// Whether a write stamped `(timestamp, opId)` wins over one stamped `(otherTimestamp, otherOpId)`.
    public static func wins(_ timestamp: Double, _ opId: String, over otherTimestamp: Double, _ otherOpId: String) -> Bool {
        if timestamp != otherTimestamp { return timestamp > otherTimestamp }
        return otherOpId.utf8.lexicographicallyPrecedes(opId.utf8)
    }

    /// `op` stamped just past `row`'s stamp: an op of this replica not yet sent, which the server
    /// will log after everything the replica has pulled, and so will win over it.
    public static func asNewest(_ op: SyncOperation, over row: MaterializedRow?) -> SyncOperation {
        guard let row, row.timestamp >= op.timestamp else { return op }
        var op = op
        op.timestamp = row.timestamp.nextUp
        return op
    }

    /// The row after a single-row op (insert, update, delete), or nil when the op changes nothing.
    public static func apply(_ op: SyncOperation, to row: MaterializedRow?) -> MaterializedRow? {
        if let row, !wins(op.timestamp, op.opId, over: row.timestamp, row.opId) { return nil }
        let incoming = op.data ?? JSONObject()
        switch op.type {
        case .insert:
            return MaterializedRow(dataId: op.dataId, data: incoming, deleted: false, timestamp: op.timestamp, opId: op.opId)
        case .update:
            guard var row else {
                return MaterializedRow(dataId: op.dataId, data: incoming, deleted: false, timestamp: op.timestamp, opId: op.opId)
            }
            row.data = merged(row.data, incoming)
            row.timestamp = op.timestamp
            row.opId = op.opId
            return row
        case .delete:
            var tombstone = row ?? MaterializedRow(dataId: op.dataId, data: JSONObject(), deleted: true, timestamp: op.timestamp, opId: op.opId)
            tombstone.deleted = true
            tombstone.timestamp = op.timestamp
            tombstone.opId = op.opId
            return tombstone
        case .batch:
            return nil
        }
    }

    /// The row after a batch op, or nil when the batch passes it over (tombstone, no match, or the
    /// row is newer than the op).
    public static func apply(_ change: BatchChange, of op: SyncOperation, to row: MaterializedRow) -> MaterializedRow? {
        guard !row.deleted, change.matches(row.data), wins(op.timestamp, op.opId, over: row.timestamp, row.opId) else {
            return nil
        }
        var row = row
        row.data = merged(row.data, change.set)
        row.timestamp = op.timestamp
        row.opId = op.opId
        return row
    }

    /// `base` with `changes`' members written over it, new members appended in their order.
    public static func merged(_ base: JSONObject, _ changes: JSONObject) -> JSONObject {
        var result = base
        for (key, value) in changes { result[key] = value }
        return result
    }
}
