import GRDB

/// Two-way inserts journaled without their row's JSON. While a row is as it was inserted, the
/// table holds exactly what its insert operation carries, so the operation reads the row from there
/// when it is sent or rebased. Writing the JSON at insert time put the row through the WAL twice
/// and made a sync-tracked insert cost twice an untracked one; deferred, the journal entry is a
/// small row of ids.
///
/// The invariant: an insert operation in `_hybrid_sync_outbox` whose data is NULL names a row that
/// has not changed since it was inserted. Whatever changes a two-way row first writes the row, as it
/// is, into that operation (``SyncJournal/materializeDeferredInserts(matching:table:in:)`` in
/// `Table.update` and `Table.delete`, ``SyncJournal/materialize(_:table:dataId:in:)`` where a sync
/// execution rewrites a row, ``SyncJournal/materializeAllDeferredInserts(schema:db:)`` before a
/// migration).
///
/// This map (table → key → outbox seq) finds those operations without an index on the outbox. It
/// is read from the outbox at the start of the first write transaction, and a transaction's
/// additions and removals reach it only if the transaction commits (``WriteSession``), so it never
/// misses an operation on disk. An entry may outlive its operation (after a rolled-back insert, a
/// conflict dropped): the materializing UPDATE checks the entry it writes.
final class DeferredInserts: Sendable {
    private let committed = Locked<[String: [String: Int64]]?>(nil)

    /// Reads the map from the outbox if it has not been read (or was reset). Called at the start of
    /// a write transaction, before the transaction changes anything.
    func loadIfNeeded(_ db: Database) throws {
        guard committed.withLock({ $0 == nil }) else { return }
        var map: [String: [String: Int64]] = [:]
        if try db.tableExists("_hybrid_sync_outbox") {
            for row in try Row.fetchAll(db, sql: "SELECT seq, table_name, data_id FROM _hybrid_sync_outbox WHERE type = 'insert' AND data IS NULL") {
                map[row["table_name"], default: [:]][row["data_id"]] = row["seq"]
            }
        }
        committed.withLock { $0 = map }
    }

    /// Forgets the map; the next write transaction reads it again.
    func reset() { committed.withLock { $0 = nil } }

    func seq(table: String, dataId: String) -> Int64? {
        committed.withLock { $0?[table]?[dataId] }
    }

    func isEmpty(table: String) -> Bool {
        committed.withLock { $0?[table]?.isEmpty ?? true }
    }

    /// A committed transaction's changes: a seq added, or nil for an entry removed.
    func apply(_ changes: [String: [String: Int64?]]) {
        guard !changes.isEmpty else { return }
        committed.withLock { map in
            guard map != nil else { return }
            // In place: a copy of a table's entries per commit would make bulk inserts quadratic.
            for (table, entries) in changes {
                for (dataId, seq) in entries { map![table, default: [:]][dataId] = seq }
                if map![table]?.isEmpty == true { map![table] = nil }
            }
        }
    }
}
