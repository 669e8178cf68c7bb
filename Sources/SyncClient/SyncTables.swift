import GRDB

/// The sync bookkeeping of one database, in tables of its own beside the app's. They are
/// written in the same transactions as the app's rows, so a crash never separates a write from the
/// operation that will carry it to the server.
///
/// - `_hybrid_sync_outbox`: the to-sync table of two-way tables (one operation per local write, in
///   order) and the DirtyList of one-way tables (one entry per write; the row itself is sent).
/// - `_hybrid_sync_base`: the server's state as pulled so far; a row the app sees is this state
///   with the local operations not yet pulled back rebased on top.
/// - `_hybrid_sync_inbox`: the to-execute table: pulled operations not yet executed.
/// - `_hybrid_sync_packets`: every packet pushed, with its body, so a retry sends the same bytes.
/// - `_hybrid_sync_conflicts`: remote changes waiting for `sync.resolve`.
/// - `_hybrid_sync_state`: the server, device, token, pull cursor and packet chain.
enum SyncTables {
    /// The outbox's seq orders the entries that exist; it needs no AUTOINCREMENT (which updates
    /// `sqlite_sequence` on every insert, half again a journaled write's cost): a seq freed by a
    /// deleted entry may come back, since nothing outside a transaction refers to one (an operation
    /// goes by its op id).
    static let outboxSQL = """
        CREATE TABLE IF NOT EXISTS _hybrid_sync_outbox (seq INTEGER PRIMARY KEY, op_id TEXT NOT NULL,
          table_name TEXT NOT NULL, data_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT, timestamp REAL NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending', packet_id TEXT, error TEXT, conflict_id TEXT)
        """

    static let createSQL = [
        outboxSQL,
        // No index: every journaled write would pay for it. A push reads pending entries in seq
        // order (the table's own), an execution reads the outbox once into memory, and an ack
        // updates by packet (a scan per packet, not per row).
        """
        CREATE TABLE IF NOT EXISTS _hybrid_sync_base (table_name TEXT NOT NULL, data_id TEXT NOT NULL, data TEXT NOT NULL,
          deleted INTEGER NOT NULL, timestamp REAL NOT NULL, op_id TEXT NOT NULL, PRIMARY KEY (table_name, data_id)) WITHOUT ROWID
        """,
        "CREATE TABLE IF NOT EXISTS _hybrid_sync_inbox (seq INTEGER PRIMARY KEY, op TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS _hybrid_sync_packets (packet_id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, dependency TEXT,
          body TEXT NOT NULL, op_ids TEXT NOT NULL, state TEXT NOT NULL, reason TEXT, created_at REAL NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS _hybrid_sync_conflicts (conflict_id TEXT PRIMARY KEY, table_name TEXT NOT NULL, data_id TEXT NOT NULL,
          local TEXT, remote TEXT, created_at REAL NOT NULL)
        """,
        "CREATE TABLE IF NOT EXISTS _hybrid_sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ]

    /// Creates the tables, and rebuilds an outbox made with AUTOINCREMENT (before 2026-11-22)
    /// without it, its entries kept as they were.
    static func create(in db: Database) throws {
        let existing = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '_hybrid_sync_outbox'")
        try db.inTransaction(.immediate) {
            if let existing, existing.contains("AUTOINCREMENT") {
                try db.execute(sql: "ALTER TABLE _hybrid_sync_outbox RENAME TO _hybrid_sync_outbox_autoincrement")
                try db.execute(sql: outboxSQL)
                try db.execute(sql: "INSERT INTO _hybrid_sync_outbox SELECT * FROM _hybrid_sync_outbox_autoincrement")
                try db.execute(sql: "DROP TABLE _hybrid_sync_outbox_autoincrement")
            }
            for sql in createSQL { try db.execute(sql: sql) }
            return .commit
        }
    }
}
