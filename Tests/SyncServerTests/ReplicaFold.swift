import JSON
import SyncProtocol
import SyncServer

/// A client's replica, as simple as it can be: the pulled log folded in seq order with
/// ``OperationFold``. The tests hold it against the server's snapshot, which is the promise the fold
/// rule makes.
struct ReplicaFold {
    var tables: [String: [String: MaterializedRow]] = [:]
    var cursor = 0

    mutating func fold(_ logged: JSONValue) throws {
        let op = try SyncOperation.decode(logged, at: "")
        cursor = logged["seq"]?.intValue ?? cursor
        if op.type == .batch {
            let change = try BatchChange(value: op.data.map(JSONValue.object), at: "/data")
            for (dataId, row) in tables[op.table, default: [:]] {
                if let changed = OperationFold.apply(change, of: op, to: row) { tables[op.table]?[dataId] = changed }
            }
        } else if let changed = OperationFold.apply(op, to: tables[op.table]?[op.dataId]) {
            tables[op.table, default: [:]][op.dataId] = changed
        }
    }

    /// The same shape as `GET /v1/snapshot`.
    var snapshot: JSONValue {
        SyncSnapshot(cursor: cursor, tables: tables.mapValues { rows in
            rows.values.sorted { $0.dataId.utf8.lexicographicallyPrecedes($1.dataId.utf8) }
        }).json
    }
}
