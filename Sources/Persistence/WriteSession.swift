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
    public let recordsEvents: Bool
    /// The database's journal, when its registry has one (``DatabaseJournal``).
    public let journal: (any DatabaseJournal)?
    /// The journal's state for this transaction, which it makes when first needed: committed with
    /// the transaction, dropped if it rolls back.
    public var transactionJournal: (any TransactionJournal)?

    init(db: Database, journal: (any DatabaseJournal)?, eventLimit: Int = ChangeLog.defaultCapacity, recordsEvents: Bool = true) {
        self.recordsEvents = recordsEvents
        self.eventLimit = eventLimit
        self.journal = journal
        super.init(db: db)
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
