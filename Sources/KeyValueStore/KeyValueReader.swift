import Foundation
import GRDB
import GRDBSQLite
import Persistence
import Synchronization

/// A connection of the kv file kept for `kv.get`'s misses, with its one prepared point query.
///
/// Why not the pool: a point read through `DatabasePool` hopped onto a reader's dispatch queue and
/// instantiated the pool's generic machinery at run time on every call, several times the cost of
/// the SQLite look-up itself (`kv.get` misses at 38k/s).
///
/// Look-ups share one read transaction (snapshot) until the store's next commit ends it
/// (``endSnapshot()``, from the store's commit observer): beginning and ending a read transaction
/// per look-up took four file-lock system calls, a third of a miss. So a look-up sees every
/// commit published before it, exactly what the value cache promises, and the snapshot never
/// outlives a commit, so it does not hold back checkpoints. It never writes (`query_only`).
// @unchecked: the SQLite handles `db` and `statement` (opened NOMUTEX) are immutable and used only with `inSnapshot`'s lock held (lookup, endSnapshot; lastError is called under it).
final class KeyValueReader: @unchecked Sendable {
    static let sql = "SELECT value, metadata, createdAt, updatedAt, expiresAt FROM kv_items WHERE bucket = ? AND key = ?"

    private let db: OpaquePointer
    private let statement: OpaquePointer
    /// Whether a look-up has begun the shared read transaction and no commit has ended it yet;
    /// its lock is also the connection's.
    private let inSnapshot = Mutex(false)

    init(path: String) throws(Persistence.PersistenceError) {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let handle else {
            if let handle { sqlite3_close_v2(handle) }
            throw .failed(reason: Persistence.PersistenceError.storageReason(opened) ?? "io", message: "cannot open \(path) for reading: SQLite error \(opened)", details: [:])
        }
        sqlite3_busy_timeout(handle, 10_000)
        var prepared: OpaquePointer?
        guard sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) == SQLITE_OK,
              sqlite3_prepare_v3(handle, Self.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK, let prepared
        else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close_v2(handle)
            throw .failed(reason: "io", message: "cannot prepare the kv read of \(path): \(message)", details: [:])
        }
        db = handle
        statement = prepared
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(db)
    }

    /// Looks the item up and calls `row` with the statement on its row, if it has one. Returns
    /// false, without reading, when another thread is using the connection: the caller then reads
    /// through the pool rather than wait.
    func lookup(bucket: String, key: String, row: (OpaquePointer) throws -> Void) throws -> Bool {
        let done = try inSnapshot.withLockIfAvailable { (inSnapshot: inout Bool) throws -> Bool in
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            if !inSnapshot {
                // Deferred: the snapshot is taken by the SELECT below.
                guard sqlite3_exec(db, "BEGIN", nil, nil, nil) == SQLITE_OK else { throw lastError(sql: "BEGIN") }
                inSnapshot = true
            }
            SQLiteBinding.bindText(bucket, at: 1, in: statement)
            SQLiteBinding.bindText(key, at: 2, in: statement)
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW {
                try row(statement)
            } else if code != SQLITE_DONE {
                let error = lastError(sql: Self.sql)
                sqlite3_reset(statement)
                endSnapshot(&inSnapshot)
                throw error
            }
            return true
        }
        return done ?? false
    }

    /// Ends the shared read transaction, so that the next look-up sees the latest commit. The
    /// store calls it for each commit, before it lets readers fill the cache again.
    func endSnapshot() {
        inSnapshot.withLock { endSnapshot(&$0) }
    }

    private func endSnapshot(_ inSnapshot: inout Bool) {
        guard inSnapshot else { return }
        sqlite3_reset(statement)
        if sqlite3_get_autocommit(db) == 0 { sqlite3_exec(db, "COMMIT", nil, nil, nil) }
        inSnapshot = false
    }

    private func lastError(sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: sqlite3_errcode(db)), message: String(cString: sqlite3_errmsg(db)), sql: sql)
    }
}
