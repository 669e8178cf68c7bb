import GRDB
import JSON
import Persistence

/// Drops, from a replica's two-way scoped tables, the rows whose scope the device no longer holds:
/// a scope revoked from its user, or a row another device moved into a scope this one cannot see.
///
/// They go from the app's table and from the server state the replica keeps (`_hybrid_sync_base`),
/// with a change event each for watchers, but nothing is journaled: the rows still exist on the
/// server, they are only out of this device's sight. A row with local operations not yet settled
/// stays: those are the app's writes, which the server judges (and refuses with reason `scope`,
/// visible in `sync.status`), not something to drop before they are sent. A refused operation no
/// longer holds its row back.
struct SyncScopeEviction {
    let schema: DatabaseSchema
    let session: WriteSession

    /// Returns how many app rows were dropped.
    func evict(outside scopes: [String]) throws -> Int {
        let db = session.db
        var evicted = 0
        let marks = Array(repeating: "?", count: scopes.count).joined(separator: ", ")
        let notGranted = scopes.isEmpty ? "" : " NOT IN (\(marks))"
        for table in schema.tables.values {
            guard let sync = table.sync, sync.mode == .twoWay, let column = sync.scope else { continue }
            let quoted = Identifier.quote(table.name), key = Identifier.quote(table.primaryKey[0]), scope = Identifier.quote(column)
            let condition = (scopes.isEmpty ? "\(scope) IS NOT NULL" : "\(scope)\(notGranted)")
                + " AND \(key) NOT IN (SELECT data_id FROM _hybrid_sync_outbox WHERE table_name = '\(table.name)' AND state != 'refused')"  // a checked identifier: letters, digits, _
            let gone = try String.fetchAll(db, sql: "SELECT \(key) FROM \(quoted) WHERE \(condition)", arguments: StatementArguments(scopes))
            if !gone.isEmpty {
                try db.execute(sql: "DELETE FROM \(quoted) WHERE \(condition)", arguments: StatementArguments(scopes))
                evicted += gone.count
                for dataId in gone { session.record(ChangeEvent(kind: .delete, table: table.name, key: .string(dataId))) }
            }
            let path = "$.\"" + column.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            // The server state of a row any local operation still names is kept (out of sight):
            // the rebase that settles, refuses or retries that operation starts from it.
            try db.execute(sql: """
                DELETE FROM _hybrid_sync_base WHERE table_name = ? AND json_extract(data, ?)\(scopes.isEmpty ? " IS NOT NULL" : notGranted)
                  AND data_id NOT IN (SELECT data_id FROM _hybrid_sync_outbox WHERE table_name = ?)
                """, arguments: StatementArguments([table.name, path] + scopes + [table.name]))
        }
        return evicted
    }
}
