import GRDB
import Synchronization

/// Two-way inserts journaled without their row's JSON. While a row is as it was inserted, the
/// table holds exactly what its insert operation carries, so the operation reads the row from there
/// when it is sent or rebased. Writing the JSON at insert time put the row through the WAL twice
/// and made a sync-tracked insert cost twice an untracked one; deferred, the journal entry is a
/// small row of ids.
///
/// The invariant: an insert operation in `_hybrid_sync_outbox` whose data is NULL names a row that
/// has not changed since it was inserted. Whatever changes a two-way row first writes the row, as it
/// is, into that operation (``SyncJournal/materializeDeferredInserts(matching:table:in:)`` in
/// `Table.update` and `Table.delete`, ``SyncJournal/materialize(_:seq:table:dataId:in:)`` where a
/// sync execution rewrites a row, ``SyncJournal/materializeAllDeferredInserts(schema:db:)`` before a
/// migration).
///
/// This map (table → key → outbox seq) finds those operations without an index on the outbox. A
/// table's entries are read from the outbox the first time a change to that table asks, so that
/// inserts cost nothing here until then; from then on, each committed transaction's additions and
/// removals are applied (``DeferredInsertChanges``). A rolled-back transaction forgets the whole map (its
/// reads may have seen what the rollback undid), so it never misses an operation on disk. An entry
/// may outlive its operation (a conflict dropped): the materializing UPDATE checks what it writes.
final class DeferredInserts: Sendable {
    private let tables = Mutex<[String: [String: Int64]]>([:])

    /// The outbox seq of `dataId`'s deferred insert, as `db` sees it.
    func seq(table: String, dataId: String, db: Database) throws -> Int64? {
        try entries(table, db: db)[dataId]
    }

    func isEmpty(table: String, db: Database) throws -> Bool {
        try entries(table, db: db).isEmpty
    }

    private func entries(_ table: String, db: Database) throws -> [String: Int64] {
        if let loaded = tables.withLock({ $0[table] }) { return loaded }
        var entries: [String: Int64] = [:]
        if try db.tableExists("_hybrid_sync_outbox") {
            let rows = try Row.fetchAll(db, sql: "SELECT seq, data_id FROM _hybrid_sync_outbox WHERE table_name = ? AND type = 'insert' AND data IS NULL",
                                        arguments: [table])
            for row in rows { entries[row["data_id"]] = row["seq"] }
        }
        tables.withLock { $0[table] = entries }
        return entries
    }

    /// Forgets every table's entries; they are read again when next asked for.
    func reset() { tables.withLock { $0.removeAll() } }

    /// A committed transaction's changes, to the tables already read: first `changed` (a seq added,
    /// nil for an entry settled), then `added`, which came after all of those.
    func apply(changed: [String: [String: Int64?]], added: ArraySlice<(table: String, dataId: String, seq: Int64)>) {
        guard !changed.isEmpty || !added.isEmpty else { return }
        tables.withLock { tables in
            guard !tables.isEmpty else { return }
            // In place: a copy of a table's entries per commit would make bulk inserts quadratic.
            for (table, entries) in changed where tables[table] != nil {
                for (dataId, seq) in entries { tables[table]![dataId] = seq }
            }
            for entry in added where tables[entry.table] != nil { tables[entry.table]![entry.dataId] = entry.seq }
        }
    }
}
