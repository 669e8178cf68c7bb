import GRDB
import GRDBSQLite
import JSON
import Persistence

/// Web Storage's items (`localStorage`) in an app's kv store: one bucket of the store's file,
/// written through the store's one write path, each change a transaction of its own that has
/// committed when the call returns, exactly as ``KeyValueStore/set(_:)`` has: a process killed
/// after it keeps the change (WAL, `synchronous = NORMAL`: only an OS crash or a power loss may
/// lose the last commits).
///
/// The bucket is named "", which kv's contract refuses (`bucket` has `minLength` 1), so no kv
/// call can read or write it. Each row is a kv item: the Web Storage key as its key, the value as
/// kv stores a string (JSON text); ``WebStorageText`` says how lone surrogates survive.
///
/// ```swift
/// let bucket = WebStorageBucket(store: try stores.store(directory: dataDir))
/// try Array("token".utf16).withUnsafeBufferPointer { key in
///     try Array("abc".utf16).withUnsafeBufferPointer { value in try bucket.set(key: key, value: value) }
/// }
/// try bucket.itemsJSON()   // the UTF-8 of ["token","abc"]
/// ```
public struct WebStorageBucket: Sendable {
    public static let name = ""

    public let store: KeyValueStore

    public init(store: KeyValueStore) {
        self.store = store
    }

    /// Every item, in the order its key was first set (the row's id, which an update keeps), as
    /// the JSON text of one array, `["key", "value", "key", "value", ...]`: what JavaScriptCore
    /// parses into JS strings in one call, lone surrogates escaped (`\ud800`) so that they come
    /// back as they were.
    public func itemsJSON() throws(Persistence.PersistenceError) -> [UInt8] {
        try store.center.readNow { session in
            var text: [UInt8] = [UInt8(ascii: "[")]
            let statement = try session.db.cachedStatement(sql: Self.itemsSQL)
            try SQLiteBinding.query(statement, [(.string(Self.name), .text)], db: session.db) { row in
                if text.count > 1 { text.append(UInt8(ascii: ",")) }
                let keyBytes = UnsafeBufferPointer(start: sqlite3_column_text(row, 0), count: Int(sqlite3_column_bytes(row, 0)))
                WebStorageText.utf16(wtf8: keyBytes).withUnsafeBufferPointer { text.append(contentsOf: WebStorageText.json($0)) }
                text.append(UInt8(ascii: ","))
                let valueBytes = UnsafeBufferPointer(start: sqlite3_column_blob(row, 1)?.assumingMemoryBound(to: UInt8.self),
                                                     count: Int(sqlite3_column_bytes(row, 1)))
                // Written again rather than copied: a row not written here (another tool's) may hold
                // text that is no JSON string, read then as the UTF-8 it is.
                let value = WebStorageText.utf16(json: valueBytes) ?? WebStorageText.utf16(wtf8: valueBytes)
                value.withUnsafeBufferPointer { text.append(contentsOf: WebStorageText.json($0)) }
            }
            text.append(UInt8(ascii: "]"))
            return text
        }
    }

    /// Sets the item `key` to `value`, committed when it returns. A write past the file's quota
    /// (``DataCenter/limit(bytes:)``) fails with reason "quota" and changes nothing.
    public func set(key: UnsafeBufferPointer<UInt16>, value: UnsafeBufferPointer<UInt16>) throws(Persistence.PersistenceError) {
        let keyBytes = WebStorageText.wtf8(key)
        let valueBytes = WebStorageText.json(value)
        let now = Int64(KeyValueStore.now())
        try store.center.writeNow { session in
            let upsert = try session.db.cachedStatement(sql: Self.upsertSQL)
            let raw = upsert.sqliteStatement
            sqlite3_reset(raw)
            SQLiteBinding.bindText(Self.name, at: 1, in: raw)
            SQLiteBinding.bindText(keyBytes, at: 2, in: raw)
            valueBytes.withUnsafeBytes { buffer in
                _ = sqlite3_bind_blob(raw, 3, buffer.baseAddress, Int32(buffer.count), SQLiteBinding.transient)
            }
            sqlite3_bind_int64(raw, 4, now)
            try SQLiteBinding.step(upsert, db: session.db)
            session.record(ChangeEvent(kind: .update, table: Self.name, key: .string(String(decoding: keyBytes, as: UTF8.self))))
        }
    }

    /// Removes the item `key`, if there is one, committed when it returns.
    public func remove(key: UnsafeBufferPointer<UInt16>) throws(Persistence.PersistenceError) {
        let keyBytes = WebStorageText.wtf8(key)
        try store.center.writeNow { session in
            let delete = try session.db.cachedStatement(sql: "DELETE FROM kv_items WHERE bucket = ? AND key = ?")
            let raw = delete.sqliteStatement
            sqlite3_reset(raw)
            SQLiteBinding.bindText(Self.name, at: 1, in: raw)
            SQLiteBinding.bindText(keyBytes, at: 2, in: raw)
            try SQLiteBinding.step(delete, db: session.db)
            session.record(ChangeEvent(kind: .delete, table: Self.name, key: .string(String(decoding: keyBytes, as: UTF8.self))))
        }
    }

    /// Removes every item, committed when it returns.
    public func clear() throws(Persistence.PersistenceError) {
        try store.center.writeNow { session in
            // Each key's own event: a refresh would empty the store's whole value cache.
            let delete = try session.db.cachedStatement(sql: "DELETE FROM kv_items WHERE bucket = ? RETURNING key")
            try SQLiteBinding.query(delete, [(.string(Self.name), .text)], db: session.db) { row in
                session.record(ChangeEvent(kind: .delete, table: Self.name, key: SQLiteBinding.column(0, as: .text, in: row)))
            }
        }
    }

    private static let itemsSQL = "SELECT key, value FROM kv_items WHERE bucket = ? ORDER BY id"
    private static let upsertSQL = """
        INSERT INTO kv_items (bucket, key, value, metadata, createdAt, updatedAt, expiresAt) VALUES (?, ?, ?, NULL, ?4, ?4, NULL)
        ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value, metadata = NULL, updatedAt = excluded.updatedAt, expiresAt = NULL
        """
}
