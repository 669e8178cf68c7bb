import GRDB
import Persistence

/// One write transaction's changes to its database's ``DeferredInserts``, which reach the map only
/// if the transaction commits: inserts appended (the bulk path's cost is an append), and settled
/// entries, with the inserts indexed when a look-up or a settle needs it. A rollback forgets the
/// whole map instead: its reads may have seen what the rollback undid.
final class DeferredInsertChanges: TransactionJournal {
    private let committed: DeferredInserts
    private let db: Database
    private var added: [(table: String, dataId: String, seq: Int64)] = []
    private var indexed = 0
    private var changed: [String: [String: Int64?]] = [:]

    private init(committed: DeferredInserts, db: Database) {
        self.committed = committed
        self.db = db
    }

    /// The session's changes, made on first use.
    static func of(_ session: WriteSession) -> DeferredInsertChanges {
        if let changes = session.transactionJournal as? DeferredInsertChanges { return changes }
        // A database's journal is always a SyncDatabaseJournal where synced tables are written; a
        // map of its own would only be read again each transaction.
        let committed = (session.journal as? SyncDatabaseJournal)?.deferredInserts ?? DeferredInserts()
        let changes = DeferredInsertChanges(committed: committed, db: session.db)
        session.transactionJournal = changes
        return changes
    }

    /// Records a two-way insert journaled without its row, at outbox `seq`.
    func add(table: String, dataId: String, seq: Int64) {
        added.append((table, dataId, seq))
    }

    func commit() {
        committed.apply(changed: changed, added: added[indexed...])
    }

    func rollBack() {
        committed.reset()
    }

    private func index() {
        while indexed < added.count {
            let entry = added[indexed]
            changed[entry.table, default: [:]][entry.dataId] = .some(entry.seq)
            indexed += 1
        }
    }

    /// The outbox seq of `dataId`'s deferred insert, as this transaction sees it.
    func seq(table: String, dataId: String) throws -> Int64? {
        index()
        if let change = changed[table]?[dataId] { return change }
        return try committed.seq(table: table, dataId: dataId, db: db)
    }

    /// Whether `table` may have deferred inserts (false positives allowed, no false negatives).
    func mayHaveDeferredInserts(table: String) throws -> Bool {
        index()
        if let changes = changed[table], changes.values.contains(where: { $0 != nil }) { return true }
        return try !committed.isEmpty(table: table, db: db)
    }

    /// `dataId`'s insert carries its row now (or is gone).
    func settle(table: String, dataId: String) {
        index()
        changed[table, default: [:]][dataId] = .some(nil)
    }
}
