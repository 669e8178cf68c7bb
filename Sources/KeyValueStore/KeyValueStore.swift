import Foundation
import GRDB
import GRDBSQLite
import JSON
import Persistence
import Synchronization

/// A key-value store on SQLite (the extended YTKKeyValueStore design): buckets so keys do not
/// clash, metadata beside each value, expiry, index tables for queries, a bounded LRU cache of
/// decoded values dropped by commit events, and a pluggable ``Serializer``.
///
/// One file per data directory, `.kv.sqlite` (storage database names cannot start with a dot, so
/// it never clashes with one). Writes go through its ``DataCenter``'s one write path.
///
/// ```swift
/// let store = try KeyValueStore(directory: dataDir)
/// try await store.set(bucket: "feed", key: "1000", value: ["title": "hi", "at": 17], metadata: nil, ttlSeconds: nil)
/// try store.get(bucket: "feed", key: "1000")?.value   // {"title": "hi", "at": 17}
/// ```
public final class KeyValueStore: Sendable {
    public static let defaultCacheBytes = 64 * 1024 * 1024
    /// A serialized value or metadata longer than this is refused.
    public static let maximumValueBytes = 4 * 1024 * 1024

    private struct CacheKey: Hashable { var bucket: String; var key: String }
    /// What the cache keeps of an item: the decoded entry (``get(bucket:key:)``), or the JSON text
    /// the bridge hands to JS (``getJSON(bucket:key:)``), whichever was read, and when it expires.
    private struct CachedItem {
        var answer: Answer
        var expiresAt: Double?

        func isExpired(at now: Double) -> Bool { expiresAt.map { $0 <= now } ?? false }
    }
    private struct CacheState {
        var cache: ValueCache<CacheKey, CachedItem>
        /// Bumped by every commit: a read that started before a commit must not fill the cache.
        var generation: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    public let center: DataCenter
    private let serializer: any Serializer
    /// Whether stored values are JSON text (the default serializer), which `getJSON` hands on as it is.
    private let storesJSONText: Bool
    private let cache: Mutex<CacheState>
    private let indexes = Mutex<[String: KeyValueIndex]>([:])
    private let writesSincePurge = Mutex(0)
    private let writeQueue = KeyValueWriteQueue()
    /// Where `get` reads a miss; the pool when another thread is using it.
    private let reader: KeyValueReader

    /// Run after each commit, once the cache no longer holds what it replaced.
    private let commitHooks = Mutex<[@Sendable () -> Void]>([])

    public init(directory: String, serializer: any Serializer = JSONSerializer(), cacheBytes: Int = KeyValueStore.defaultCacheBytes) throws(Persistence.PersistenceError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PersistenceError.failed(reason: "io", message: "cannot create \(directory): \(error)", details: [:])
        }
        center = try DataCenter(name: "kv", path: directory + "/.kv.sqlite")
        self.serializer = serializer
        storesJSONText = serializer is JSONSerializer
        cache = Mutex(CacheState(cache: ValueCache(capacity: cacheBytes)))
        // A file opened for reading only (it cannot be written) has its tables already, or nothing
        // to read.
        if !center.isReadOnly { try center.writeNow { session in
            try session.db.execute(sql: """
                CREATE TABLE IF NOT EXISTS kv_items (id INTEGER PRIMARY KEY, bucket TEXT NOT NULL, key TEXT NOT NULL,
                  value BLOB NOT NULL, metadata TEXT, createdAt INTEGER NOT NULL, updatedAt INTEGER NOT NULL, expiresAt INTEGER,
                  UNIQUE (bucket, key));
                CREATE INDEX IF NOT EXISTS kv_items_expiry ON kv_items(expiresAt) WHERE expiresAt IS NOT NULL;
                CREATE TABLE IF NOT EXISTS kv_indexes (id INTEGER PRIMARY KEY, bucket TEXT NOT NULL UNIQUE, definition TEXT NOT NULL);
                """)
        } }
        reader = try KeyValueReader(path: directory + "/.kv.sqlite")
        let stored: [(Int64, String, String)] = try center.readNow { session in
            var rows: [(Int64, String, String)] = []
            let statement = try session.db.cachedStatement(sql: "SELECT id, bucket, definition FROM kv_indexes")
            try SQLiteBinding.query(statement, [], db: session.db) { row in
                rows.append((sqlite3_column_int64(row, 0),
                             SQLiteBinding.column(1, as: .text, in: row).stringValue ?? "",
                             SQLiteBinding.column(2, as: .text, in: row).stringValue ?? ""))
            }
            return rows
        }
        for (id, bucket, text) in stored {
            guard let definition = try? JSONParser.parse(text),
                  let index = try? KeyValueIndex.parse(bucket: bucket, columns: definition["columns"] ?? .null, from: definition["from"] ?? .null, id: id)
            else { continue }
            indexes.withLock { $0[bucket] = index }
        }
        center.changes.onCommit { [weak self] events in
            guard let self else { return }
            // The reader's snapshot ends first: a get that sees the new generation must read
            // after the commit, or it would cache the value the commit replaced.
            reader.endSnapshot()
            cache.withLock { state in
                state.generation &+= 1
                // A setMany of 100k items into an empty cache need not hash 100k keys.
                guard state.cache.count > 0 else { return }
                for event in events {
                    if event.kind == .refresh { state.cache.removeAll(); continue }
                    state.cache.remove(CacheKey(bucket: event.table, key: event.key.stringValue ?? ""))
                }
            }
            // Last: whoever a hook tells (a JS client's cache) must find the commit visible here.
            for hook in commitHooks.withLock({ $0 }) { hook() }
        }
    }

    /// Calls `body` after every commit to this store, once the commit is visible to every read
    /// and the cache no longer holds what it replaced: how a caller keeps a cache of its own (the
    /// kv service's JS client) honest. `body` runs on the writer; keep it short.
    public func onCommit(_ body: @escaping @Sendable () -> Void) {
        commitHooks.withLock { $0.append(body) }
    }

    static func now() -> Double { (Date().timeIntervalSince1970 * 1000).rounded() }

    // MARK: - Writing

    /// One item for ``setMany(_:)``.
    public struct Item: Sendable {
        public var bucket: String
        public var key: String
        public var value: JSONValue
        public var metadata: JSONValue
        public var ttlSeconds: Double?
        /// Where the item sits in the caller's params, for errors (`/items/3`).
        public var path: String

        public init(bucket: String, key: String, value: JSONValue, metadata: JSONValue = .null, ttlSeconds: Double? = nil, path: String = "") {
            self.bucket = bucket
            self.key = key
            self.value = value
            self.metadata = metadata
            self.ttlSeconds = ttlSeconds
            self.path = path
        }
    }

    /// Writes one item in a transaction of its own; returns its entry's times.
    @discardableResult
    public func set(_ item: Item) async throws(Persistence.PersistenceError) -> KeyValueEntry {
        let prepared = try prepare(item)
        if Task.isCancelled { throw .failed("cancelled", "the operation was cancelled") }
        return try await writeQueue.run { () throws(Persistence.PersistenceError) -> KeyValueEntry in
            try self.center.writeNow { session in
                let upsert = try session.db.cachedStatement(sql: Self.upsertSQL)
                let lookup = try session.db.cachedStatement(sql: Self.rowSQL)
                let entry = try self.put(prepared, now: Self.now(), index: self.indexes.withLock { $0[item.bucket] },
                                         upsert: upsert, lookup: lookup, in: session)
                let purge = self.writesSincePurge.withLock { count -> Bool in
                    count += 1
                    if count >= 1000 { count = 0; return true }
                    return false
                }
                if purge { try self.purgeExpired(session, now: entry.updatedAt) }
                return entry
            }
        }
    }

    /// Writes every item in one transaction: all or none.
    public func setMany(_ items: [Item]) async throws(Persistence.PersistenceError) -> Int {
        var prepared: [Prepared] = []
        prepared.reserveCapacity(items.count)
        for item in items { prepared.append(try prepare(item)) }
        let all = prepared
        return try await center.write { session in
            let indexes = self.indexes.withLock { $0 }
            let upsert = try session.db.cachedStatement(sql: Self.upsertSQL)
            // The row's id is needed only to fill index columns; createdAt is not returned.
            let lookup = indexes.isEmpty ? nil : try session.db.cachedStatement(sql: Self.rowSQL)
            let now = Self.now()
            for item in all {
                let index = indexes.isEmpty ? nil : indexes[item.item.bucket]
                _ = try self.put(item, now: now, index: index, upsert: upsert, lookup: index == nil ? nil : lookup, in: session)
            }
            try self.purgeExpired(session, now: now)
            return all.count
        }
    }

    private struct Prepared: Sendable {
        var item: Item
        var bytes: [UInt8]
    }

    private func prepare(_ item: Item) throws(Persistence.PersistenceError) -> Prepared {
        guard !item.bucket.isEmpty else {
            throw .invalid(path: item.path + "/bucket", message: "expected a bucket name, here or for the whole call")
        }
        let bytes: [UInt8]
        do {
            bytes = try serializer.serialize(item.value, bucket: item.bucket, key: item.key)
        } catch {
            throw .invalid(path: item.path + "/value", message: "the serializer refused the value: \(error)")
        }
        guard bytes.count <= Self.maximumValueBytes else {
            throw .invalid(path: item.path + "/value", message: "value too large: \(bytes.count) bytes serialized, at most \(Self.maximumValueBytes)")
        }
        if !item.metadata.isNull, JSONWriter.write(item.metadata).utf8.count > Self.maximumValueBytes {
            throw .invalid(path: item.path + "/metadata", message: "metadata too large: at most \(Self.maximumValueBytes) bytes")
        }
        return Prepared(item: item, bytes: bytes)
    }

    private static let upsertSQL = """
        INSERT INTO kv_items (bucket, key, value, metadata, createdAt, updatedAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value, metadata = excluded.metadata,
          updatedAt = excluded.updatedAt, expiresAt = excluded.expiresAt
        """
    /// The upserted row's id and createdAt. Read apart rather than with `RETURNING`, which made
    /// SQLite open and close an ephemeral table for every row (a quarter of `setMany`'s time).
    private static let rowSQL = "SELECT id, createdAt FROM kv_items WHERE bucket = ? AND key = ?"

    /// Upserts one item with `upsert` (``upsertSQL``, looked up once per transaction), binding
    /// straight from the prepared item: no argument array per item on the `setMany` loop. Reads
    /// the row's id and createdAt back with `lookup` when given; without it, createdAt is `now`.
    private func put(_ prepared: Prepared, now: Double, index: KeyValueIndex?, upsert: Statement, lookup: Statement?,
                     in session: WriteSession) throws -> KeyValueEntry {
        let item = prepared.item
        let expiresAt = item.ttlSeconds.map { now + ($0 * 1000).rounded() }
        let raw = upsert.sqliteStatement
        sqlite3_reset(raw)
        SQLiteBinding.bindText(item.bucket, at: 1, in: raw)
        SQLiteBinding.bindText(item.key, at: 2, in: raw)
        prepared.bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(raw, 3, buffer.baseAddress, Int32(buffer.count), SQLiteBinding.transient)
        }
        SQLiteBinding.bind(item.metadata, as: item.metadata.isNull ? .text : .json, at: 4, in: raw)
        sqlite3_bind_int64(raw, 5, Int64(now))
        sqlite3_bind_int64(raw, 6, Int64(now))
        if let expiresAt { SQLiteBinding.bind(.number(expiresAt), as: .integer, at: 7, in: raw) } else { sqlite3_bind_null(raw, 7) }
        try SQLiteBinding.step(upsert, db: session.db)
        var id: Int64 = 0
        var createdAt = now
        if let lookup {
            try SQLiteBinding.query(lookup, [(.string(item.bucket), .text), (.string(item.key), .text)], db: session.db) { row in
                id = sqlite3_column_int64(row, 0)
                createdAt = Double(sqlite3_column_int64(row, 1))
            }
        }
        if let index {
            let insert = try session.db.cachedStatement(sql: index.insertSQL)
            try SQLiteBinding.execute(insert, [(.number(Double(id)), .integer)] + index.values(value: item.value, metadata: item.metadata), db: session.db)
        }
        session.record(ChangeEvent(kind: .update, table: item.bucket, key: .string(item.key)))
        return KeyValueEntry(value: item.value, metadata: item.metadata, createdAt: createdAt, updatedAt: now, expiresAt: expiresAt)
    }

    private func purgeExpired(_ session: WriteSession, now: Double) throws {
        let statement = try session.db.cachedStatement(sql: "DELETE FROM kv_items WHERE expiresAt IS NOT NULL AND expiresAt <= ? RETURNING bucket, key")
        try SQLiteBinding.query(statement, [(.number(now), .integer)], db: session.db) { row in
            session.record(ChangeEvent(kind: .delete, table: SQLiteBinding.column(0, as: .text, in: row).stringValue ?? "",
                                       key: SQLiteBinding.column(1, as: .text, in: row)))
        }
    }

    /// Deletes one item; returns whether it existed.
    public func delete(bucket: String, key: String) async throws(Persistence.PersistenceError) -> Bool {
        try await center.write { session in
            let statement = try session.db.cachedStatement(sql: "DELETE FROM kv_items WHERE bucket = ? AND key = ? RETURNING id")
            var deleted = false
            try SQLiteBinding.query(statement, [(.string(bucket), .text), (.string(key), .text)], db: session.db) { _ in deleted = true }
            if deleted { session.record(ChangeEvent(kind: .delete, table: bucket, key: .string(key))) }
            return deleted
        }
    }

    // MARK: - Reading

    /// The item, from the cache when it holds it, else read (on the caller's thread) and cached.
    /// Nil for a missing or expired item.
    public func get(bucket: String, key: String) throws(Persistence.PersistenceError) -> KeyValueEntry? {
        guard case .entry(let entry) = try read(bucket: bucket, key: key, asText: false) else { return nil }
        return entry
    }

    /// What ``getJSON(bucket:key:)`` found: the entry, or its JSON text.
    public enum Answer: Sendable {
        case entry(KeyValueEntry)
        /// `{"value":…,"metadata":…,"createdAt":…,"updatedAt":…,"expiresAt":…}`, as UTF-8.
        case jsonText([UInt8])
    }

    /// `get`, for a caller that hands the entry on as JSON (the bridge): the JSON text of the
    /// item's row, put together from the stored value without decoding it, when the serializer
    /// is JSON and the value is not bytes; else the decoded entry. Either is cached as it came.
    /// Nil for a missing or expired item.
    public func getJSON(bucket: String, key: String) throws(Persistence.PersistenceError) -> Answer? {
        try read(bucket: bucket, key: key, asText: storesJSONText)
    }

    private func read(bucket: String, key: String, asText: Bool) throws(Persistence.PersistenceError) -> Answer? {
        let cacheKey = CacheKey(bucket: bucket, key: key)
        let now = Self.now()
        let (cached, generation): (CachedItem?, UInt64) = cache.withLock { state in
            if let item = state.cache.value(for: cacheKey) {
                state.hits += 1
                return (item, state.generation)
            }
            state.misses += 1
            return (nil, state.generation)
        }
        if let cached {
            if cached.isExpired(at: now) { return nil }
            if case .entry = cached.answer { return cached.answer }
            if asText { return cached.answer }
            // Text read for JS, wanted decoded: the row again, below.
        }
        var found: (CachedItem, Int)?
        let decode = { (row: OpaquePointer) throws in
            let expires = Self.integerColumn(4, in: row).map(Double.init)
            let overhead = key.utf8.count + bucket.utf8.count + 96
            if asText, let text = Self.entryText(row) {
                found = (CachedItem(answer: .jsonText(text), expiresAt: expires), text.count + overhead)
                return
            }
            let count = Int(sqlite3_column_bytes(row, 0))
            let bytes = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(row, 0), count: count))
            let value = try self.serializer.deserialize(bytes, bucket: bucket, key: key)
            let entry = KeyValueEntry(value: value, metadata: SQLiteBinding.column(1, as: .json, in: row),
                                      createdAt: Double(sqlite3_column_int64(row, 2)), updatedAt: Double(sqlite3_column_int64(row, 3)),
                                      expiresAt: expires)
            found = (CachedItem(answer: .entry(entry), expiresAt: expires), count + overhead)
        }
        let read: Bool
        do { read = try reader.lookup(bucket: bucket, key: key, row: decode) } catch { throw .wrap(error) }
        if !read {
            try center.readStatementNow { session in
                let statement = try session.db.cachedStatement(sql: KeyValueReader.sql)
                try SQLiteBinding.query(statement, [(.string(bucket), .text), (.string(key), .text)], db: session.db, row: decode)
            }
        }
        guard let (item, cost) = found else { return nil }
        cache.withLock { state in
            if state.generation == generation { state.cache.insert(item, for: cacheKey, cost: cost) }
        }
        return item.isExpired(at: now) ? nil : item.answer
    }

    private static func integerColumn(_ index: Int32, in row: OpaquePointer) -> Int64? {
        sqlite3_column_type(row, index) == SQLITE_NULL ? nil : sqlite3_column_int64(row, index)
    }

    /// The JSON text of the entry in `row` (value, metadata, createdAt, updatedAt, expiresAt), in
    /// ``KeyValueEntry/jsonValue``'s key order, or nil when the row holds what text cannot carry
    /// as it is: a value stored as bytes, metadata that is not JSON text.
    private static func entryText(_ row: OpaquePointer) -> [UInt8]? {
        let valueCount = Int(sqlite3_column_bytes(row, 0))
        guard sqlite3_column_type(row, 0) == SQLITE_BLOB, valueCount > 0, let value = sqlite3_column_blob(row, 0) else { return nil }
        let valueBytes = UnsafeRawBufferPointer(start: value, count: valueCount)
        guard valueBytes[0] != 0 else { return nil }
        var out: [UInt8] = []
        let metadataType = sqlite3_column_type(row, 1)
        let metadataCount = metadataType == SQLITE_TEXT ? Int(sqlite3_column_bytes(row, 1)) : 0
        out.reserveCapacity(valueCount + metadataCount + 112)
        out.append(contentsOf: #"{"value":"#.utf8)
        out.append(contentsOf: valueBytes)
        out.append(contentsOf: #","metadata":"#.utf8)
        switch metadataType {
        case SQLITE_NULL: out.append(contentsOf: "null".utf8)
        case SQLITE_INTEGER: JSONWriter.writeNumber(Double(sqlite3_column_int64(row, 1)), into: &out)
        case SQLITE_FLOAT: JSONWriter.writeNumber(sqlite3_column_double(row, 1), into: &out)
        case SQLITE_TEXT:
            // Checked: a row written by another tool may hold text that is not JSON, which `get`
            // reads as a string (SQLiteBinding.column), so it must stay readable.
            guard let metadata = sqlite3_column_text(row, 1) else { return nil }
            let text = UnsafeBufferPointer(start: metadata, count: metadataCount)
            guard (try? JSONParser.parse(text)) != nil else { return nil }
            out.append(contentsOf: text)
        default: return nil
        }
        out.append(contentsOf: #","createdAt":"#.utf8)
        JSONWriter.writeNumber(Double(sqlite3_column_int64(row, 2)), into: &out)
        out.append(contentsOf: #","updatedAt":"#.utf8)
        JSONWriter.writeNumber(Double(sqlite3_column_int64(row, 3)), into: &out)
        out.append(contentsOf: #","expiresAt":"#.utf8)
        if let expires = integerColumn(4, in: row) { JSONWriter.writeNumber(Double(expires), into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The bucket's live keys in order, those starting with `prefix` when given.
    public func keys(bucket: String, prefix: String?, limit: Int?) async throws(Persistence.PersistenceError) -> [String] {
        var sql = "SELECT key FROM kv_items WHERE bucket = ? AND (expiresAt IS NULL OR expiresAt > ?)"
        var arguments: [(JSONValue, ColumnType)] = [(.string(bucket), .text), (.number(Self.now()), .integer)]
        if let prefix, !prefix.isEmpty {
            sql += " AND substr(key, 1, length(?)) = ?"
            arguments += [(.string(prefix), .text), (.string(prefix), .text)]
        }
        sql += " ORDER BY key"
        if let limit { sql += " LIMIT \(limit)" }
        let finalSQL = sql
        let finalArguments = arguments
        return try await center.read { session in
            var keys: [String] = []
            try SQLiteBinding.query(try session.db.cachedStatement(sql: finalSQL), finalArguments, db: session.db) { row in
                keys.append(SQLiteBinding.column(0, as: .text, in: row).stringValue ?? "")
            }
            return keys
        }
    }

    /// Declares the bucket's index columns and fills them from the items already stored.
    /// Returns how many items were indexed.
    public func defineIndex(bucket: String, columns: JSONValue, from: JSONValue) async throws(Persistence.PersistenceError) -> Int {
        _ = try KeyValueIndex.parse(bucket: bucket, columns: columns, from: from, id: 0)
        return try await center.write { session in
            let db = session.db
            let existing = self.indexes.withLock { $0[bucket] }
            if let existing, existing.definition == ["columns": columns, "from": from] {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(Identifier.quote(existing.tableName))") ?? 0
            }
            if let existing { try db.execute(sql: "DROP TABLE \(Identifier.quote(existing.tableName))") }
            try db.execute(sql: "DELETE FROM kv_indexes WHERE bucket = ?", arguments: [bucket])
            try db.execute(sql: "INSERT INTO kv_indexes (bucket, definition) VALUES (?, ?)",
                           arguments: [bucket, JSONWriter.write(["columns": columns, "from": from])])
            let index = try KeyValueIndex.parse(bucket: bucket, columns: columns, from: from, id: db.lastInsertedRowID)
            for sql in index.createSQL { try db.execute(sql: sql) }
            let insert = try db.cachedStatement(sql: index.insertSQL)
            var count = 0
            let select = try db.makeStatement(sql: "SELECT id, value, metadata, key FROM kv_items WHERE bucket = ?")
            var rows: [(Int64, JSONValue, JSONValue)] = []
            try SQLiteBinding.query(select, [(.string(bucket), .text)], db: db) { row in
                let size = Int(sqlite3_column_bytes(row, 1))
                let bytes = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(row, 1), count: size))
                let key = SQLiteBinding.column(3, as: .text, in: row).stringValue ?? ""
                rows.append((sqlite3_column_int64(row, 0), try self.serializer.deserialize(bytes, bucket: bucket, key: key),
                             SQLiteBinding.column(2, as: .json, in: row)))
            }
            for (id, value, metadata) in rows {
                try SQLiteBinding.execute(insert, [(.number(Double(id)), .integer)] + index.values(value: value, metadata: metadata), db: db)
                count += 1
            }
            self.indexes.withLock { $0[bucket] = index }
            return count
        }
    }

    /// The items whose index columns match `where`, in `orderBy` order: `{key, value, metadata}`.
    public func query(bucket: String, where filter: JSONValue?, orderBy: JSONValue?, limit: JSONValue?) async throws(Persistence.PersistenceError) -> [JSONValue] {
        guard let index = indexes.withLock({ $0[bucket] }) else {
            throw .invalid(path: "/bucket", message: "bucket \(Quoted(bucket)) has no index; declare its columns with kv.defineIndex first")
        }
        let query = try QueryCommand(table: index.table, where: filter, orderBy: orderBy, limit: limit, qualifier: "i.")
        let sql = "SELECT m.key, m.value, m.metadata FROM kv_items m JOIN \(Identifier.quote(index.tableName)) i ON i.item = m.id"
            + " WHERE m.bucket = ? AND (m.expiresAt IS NULL OR m.expiresAt > ?) AND " + query.whereSQL + query.tail
        let arguments: [(JSONValue, ColumnType)] = [(.string(bucket), .text), (.number(Self.now()), .integer)] + query.arguments
        return try await center.read { session in
            var items: [JSONValue] = []
            try SQLiteBinding.query(try session.db.cachedStatement(sql: sql), arguments, db: session.db) { row in
                let key = SQLiteBinding.column(0, as: .text, in: row).stringValue ?? ""
                let size = Int(sqlite3_column_bytes(row, 1))
                let bytes = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(row, 1), count: size))
                items.append(["key": .string(key), "value": try self.serializer.deserialize(bytes, bucket: bucket, key: key),
                              "metadata": SQLiteBinding.column(2, as: .json, in: row)])
            }
            return items
        }
    }

    /// Cache hits and misses so far, and the bytes the cache holds.
    public var cacheStatistics: (hits: Int, misses: Int, bytes: Int, entries: Int) {
        cache.withLock { ($0.hits, $0.misses, $0.cache.totalCost, $0.cache.count) }
    }
}
