/// The sync bookkeeping of one database (SPEC §6), in tables of its own beside the app's. They are
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
    static let createSQL = [
        """
        CREATE TABLE IF NOT EXISTS _hybrid_sync_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL,
          table_name TEXT NOT NULL, data_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT, timestamp REAL NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending', packet_id TEXT, error TEXT, conflict_id TEXT)
        """,
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
}
