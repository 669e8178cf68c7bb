import GRDB

/// A connection lent to a read: valid only inside the closure it is handed to.
public class ReadSession {
    public let db: Database

    init(db: Database) { self.db = db }
}

/// The one write path's handle inside a transaction: the connection, and the change events the
/// transaction will publish if, and only if, it commits.
public final class WriteSession: ReadSession {
    private(set) var events: [ChangeEvent] = []
    /// Events recorded but not kept: a transaction larger than the change log's buffer keeps only
    /// its last events (watchers behind it get a refresh anyway), so memory stays bounded.
    private(set) var droppedEvents = 0
    private let eventLimit: Int
    /// Tables' writes record events only when someone may read them (a watcher, a cache).
    let recordsEvents: Bool
    /// The database's deferred inserts as committed, and this transaction's changes to them, which
    /// reach the map only if the transaction commits: inserts appended (the bulk path's cost is an
    /// append), and settled entries, with the inserts indexed when a look-up or a settle needs it.
    private let deferredInserts: DeferredInserts
    private var deferredAdded: [(table: String, dataId: String, seq: Int64)] = []
    private var deferredIndexed = 0
    private var deferredChanged: [String: [String: Int64?]] = [:]

    init(db: Database, deferredInserts: DeferredInserts, eventLimit: Int = ChangeLog.defaultCapacity, recordsEvents: Bool = true) {
        self.recordsEvents = recordsEvents
        self.eventLimit = eventLimit
        self.deferredInserts = deferredInserts
        super.init(db: db)
    }

    /// Records a two-way insert journaled without its row (see ``DeferredInserts``).
    func deferInsert(table: String, dataId: String, seq: Int64) {
        deferredAdded.append((table, dataId, seq))
    }

    /// Hands this transaction's changes to the map; called once it has committed.
    func commitDeferredInserts() {
        deferredInserts.apply(changed: deferredChanged, added: deferredAdded[deferredIndexed...])
    }

    private func indexDeferredInserts() {
        while deferredIndexed < deferredAdded.count {
            let added = deferredAdded[deferredIndexed]
            deferredChanged[added.table, default: [:]][added.dataId] = .some(added.seq)
            deferredIndexed += 1
        }
    }

    /// The outbox seq of `dataId`'s deferred insert, as this transaction sees it.
    func deferredInsert(table: String, dataId: String) throws -> Int64? {
        indexDeferredInserts()
        if let change = deferredChanged[table]?[dataId] { return change }
        return try deferredInserts.seq(table: table, dataId: dataId, db: db)
    }

    /// Whether `table` may have deferred inserts (false positives allowed, no false negatives).
    func mayHaveDeferredInserts(table: String) throws -> Bool {
        indexDeferredInserts()
        if let changes = deferredChanged[table], changes.values.contains(where: { $0 != nil }) { return true }
        return try !deferredInserts.isEmpty(table: table, db: db)
    }

    /// `dataId`'s insert carries its row now (or is gone).
    func settleDeferredInsert(table: String, dataId: String) {
        indexDeferredInserts()
        deferredChanged[table, default: [:]][dataId] = .some(nil)
    }

    /// Adds an event to publish at commit: for writes that do not go through a ``Table`` (kv).
    public func record(_ event: ChangeEvent) {
        guard recordsEvents else { return }
        events.append(event)
        if events.count >= 2 * eventLimit {
            events.removeFirst(eventLimit)
            droppedEvents += eventLimit
        }
    }
}
