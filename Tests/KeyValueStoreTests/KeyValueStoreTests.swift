import GRDB
import HostTesting
import JSON
import KeyValueStore
import Persistence
import Testing

/// Stores values reversed, to show the store uses the serializer it is given, both ways.
struct ReversingSerializer: Serializer {
    func serialize(_ value: JSONValue, bucket: String, key: String) throws -> [UInt8] { Array(JSONWriter.write(value).utf8.reversed()) }
    func deserialize(_ bytes: [UInt8], bucket: String, key: String) throws -> JSONValue { try JSONParser.parse(Array(bytes.reversed())) }
}

@Suite("KeyValueStore")
struct KeyValueStoreTests {
    @Test("a custom serializer is used to write and to read")
    func customSerializer() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path, serializer: ReversingSerializer())
        try await store.set(.init(bucket: "b", key: "k", value: ["a": [1, 2]]))
        #expect(try store.get(bucket: "b", key: "k")?.value == ["a": [1, 2]])
        let fresh = try KeyValueStore(directory: directory.path, serializer: ReversingSerializer())
        #expect(try fresh.get(bucket: "b", key: "k")?.value == ["a": [1, 2]])
    }

    @Test("a get after a get is served by the cache; a commit to the key invalidates it")
    func cacheInvalidation() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        try await store.set(.init(bucket: "b", key: "k", value: 1))
        _ = try store.get(bucket: "b", key: "k")
        _ = try store.get(bucket: "b", key: "k")
        #expect(store.cacheStatistics.hits == 1 && store.cacheStatistics.misses == 1)
        try await store.set(.init(bucket: "b", key: "k", value: 2))
        #expect(try store.get(bucket: "b", key: "k")?.value == 2)
        #expect(store.cacheStatistics.misses == 2)
    }

    @Test("the cache stays within its byte budget, dropping the least recently used")
    func cacheBound() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path, cacheBytes: 10_000)
        let items = (0..<100).map { KeyValueStore.Item(bucket: "b", key: "k\($0)", value: .string(String(repeating: "x", count: 500))) }
        _ = try await store.setMany(items)
        for i in 0..<100 { _ = try store.get(bucket: "b", key: "k\(i)") }
        #expect(store.cacheStatistics.bytes <= 10_000)
        #expect(store.cacheStatistics.entries > 0 && store.cacheStatistics.entries < 100)
        _ = try store.get(bucket: "b", key: "k99")
        #expect(store.cacheStatistics.hits == 1)
    }

    @Test("a get sees a commit made after an earlier get began the reader's snapshot")
    func readerSnapshotEndsAtCommit() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        try await store.set(.init(bucket: "b", key: "a", value: 1))
        #expect(try store.get(bucket: "b", key: "a")?.value == 1)
        #expect(try store.get(bucket: "b", key: "missing") == nil)
        try await store.set(.init(bucket: "b", key: "missing", value: 2))
        #expect(try store.get(bucket: "b", key: "missing")?.value == 2)
        _ = try await store.setMany([.init(bucket: "b", key: "many", value: 3)])
        #expect(try store.get(bucket: "b", key: "many")?.value == 3)
        #expect(try await store.delete(bucket: "b", key: "many"))
        #expect(try store.get(bucket: "b", key: "many") == nil)
    }

    @Test("concurrent sets each commit on their own and all answer; a second set keeps createdAt")
    func concurrentSets() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        let first = try await store.set(.init(bucket: "b", key: "same", value: 0))
        try await withThrowingTaskGroup(of: KeyValueEntry.self) { group in
            for i in 0..<300 { group.addTask { try await store.set(.init(bucket: "b", key: "k\(i)", value: .number(Double(i)))) } }
            var answered = 0
            for try await _ in group { answered += 1 }
            #expect(answered == 300)
        }
        for i in 0..<300 { #expect(try store.get(bucket: "b", key: "k\(i)")?.value == .number(Double(i))) }
        try await Task.sleep(for: .milliseconds(2))
        let second = try await store.set(.init(bucket: "b", key: "same", value: 1))
        #expect(second.createdAt == first.createdAt)
        #expect(second.updatedAt > first.createdAt)
        #expect(try store.get(bucket: "b", key: "same")?.value == 1)
    }

    @Test("an item past its time to live is not returned")
    func expiry() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        let entry = try await store.set(.init(bucket: "b", key: "k", value: 1, ttlSeconds: 0.02))
        // A long time to live beside it: present whatever the machine's pauses (no timing bound).
        try await store.set(.init(bucket: "b", key: "long", value: 2, ttlSeconds: 600))
        #expect(entry.expiresAt != nil)
        try await Task.sleep(for: .milliseconds(50))
        #expect(try store.get(bucket: "b", key: "k") == nil)
        #expect(try store.get(bucket: "b", key: "long")?.value == 2)
        #expect(try await store.keys(bucket: "b", prefix: nil, limit: nil) == ["long"])
    }

    /// Values and metadata of every JSON kind, in pairs.
    static let storedRows: [(JSONValue, JSONValue)] = [
        (1, .null), (-2.5, "m"), ("quote \" back \\ line\n é 😀 \u{2028}", 3), (.null, 2.5), (true, true),
        (false, false), ([1, [2, ["x": .null]]], ["from": "test", "n": [1e-7]]), (["__proto__": 1, "a": ["b": 1e300]], "😀"),
    ]

    @Test("getJSON's text of a row is exactly the entry get decodes, for every kind of value and metadata; the cache keeps either", arguments: storedRows)
    func entryText(value: JSONValue, metadata: JSONValue) async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let writer = try KeyValueStore(directory: directory.path)
        try await writer.set(.init(bucket: "b", key: "k", value: value, metadata: metadata))
        try await writer.set(.init(bucket: "b", key: "ttl", value: value, metadata: metadata, ttlSeconds: 600))
        for key in ["k", "ttl"] {
            let store = try KeyValueStore(directory: directory.path)
            // A miss comes as text, and the cache keeps the text: the next getJSON is a hit.
            guard case .jsonText(let text) = try store.getJSON(bucket: "b", key: key) else {
                Issue.record("a miss of a JSON value should come as text")
                return
            }
            guard case .jsonText(let again) = try store.getJSON(bucket: "b", key: key) else {
                Issue.record("a cached text should come as text")
                return
            }
            #expect(again == text)
            #expect(store.cacheStatistics.hits == 1 && store.cacheStatistics.entries == 1)
            // get wants the entry decoded: it reads the row again and caches the entry instead.
            let entry = try #require(try store.get(bucket: "b", key: key))
            #expect(try JSONParser.parse(text) == entry.jsonValue)
            #expect(entry.value == value)
            #expect(entry.metadata == metadata)
            #expect((entry.expiresAt != nil) == (key == "ttl"))
            guard case .entry(let cached) = try store.getJSON(bucket: "b", key: key) else {
                Issue.record("a cached entry should come as it is")
                return
            }
            #expect(cached == entry)
        }
    }

    @Test("getJSON hands over a bytes value or another serializer's row decoded, and nil for a missing or expired item")
    func entryTextFallbacks() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        try await store.set(.init(bucket: "b", key: "bytes", value: .bytes([0, 1, 2]), metadata: ["kind": "raw"]))
        try await store.set(.init(bucket: "b", key: "gone", value: 1, ttlSeconds: 0.02))
        guard case .entry(let entry) = try store.getJSON(bucket: "b", key: "bytes") else {
            Issue.record("bytes cannot be JSON text")
            return
        }
        #expect(entry.value == .bytes([0, 1, 2]))
        #expect(entry.metadata == ["kind": "raw"])
        #expect(try store.getJSON(bucket: "b", key: "missing") == nil)
        // Read (and cached, as text) while it may still live: the cached text expires too.
        _ = try store.getJSON(bucket: "b", key: "gone")
        try await Task.sleep(for: .milliseconds(50))
        #expect(try store.getJSON(bucket: "b", key: "gone") == nil)

        let other = TemporaryFolder(prefix: "storage-tests")
        defer { other.remove() }
        let reversed = try KeyValueStore(directory: other.path, serializer: ReversingSerializer())
        try await reversed.set(.init(bucket: "b", key: "k", value: ["a": 1]))
        guard case .entry(let decoded) = try reversed.getJSON(bucket: "b", key: "k") else {
            Issue.record("another serializer's bytes are not JSON text")
            return
        }
        #expect(decoded.value == ["a": 1])
    }

    @Test("metadata another tool stored as text that is not JSON stays readable, as a string, through getJSON too")
    func foreignMetadata() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let writer = try KeyValueStore(directory: directory.path)
        try await writer.set(.init(bucket: "b", key: "k", value: ["a": 1], metadata: "json"))
        let queue = try DatabaseQueue(path: directory.path + "/.kv.sqlite")
        try await queue.write { db in try db.execute(sql: "UPDATE kv_items SET metadata = 'plain {words' WHERE key = 'k'") }
        try queue.close()
        let store = try KeyValueStore(directory: directory.path)
        guard case .entry(let entry) = try store.getJSON(bucket: "b", key: "k") else {
            Issue.record("metadata that is not JSON cannot go as text")
            return
        }
        #expect(entry.value == ["a": 1])
        #expect(entry.metadata == "plain {words")
    }

    @Test("setMany refuses an oversized value, naming the item, and writes none")
    func setManyNamesTheField() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        let huge = JSONValue.string(String(repeating: "x", count: KeyValueStore.maximumValueBytes + 1))
        await #expect(throws: PersistenceError.invalid(path: "/items/1/value",
                                                       message: "value too large: \(KeyValueStore.maximumValueBytes + 3) bytes serialized, at most \(KeyValueStore.maximumValueBytes)")) {
            _ = try await store.setMany([.init(bucket: "b", key: "ok", value: 1, path: "/items/0"), .init(bucket: "b", key: "big", value: huge, path: "/items/1")])
        }
        #expect(try store.get(bucket: "b", key: "ok") == nil)
    }

    @Test("setMany fills a bucket's index columns, and a query finds the items")
    func setManyFillsIndex() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        _ = try await store.defineIndex(bucket: "tasks", columns: ["due": "INTEGER"], from: "value")
        _ = try await store.setMany((0..<10).map { .init(bucket: "tasks", key: "t\($0)", value: ["due": .number(Double($0))]) }
                                    + [.init(bucket: "other", key: "x", value: 1)])
        let found = try await store.query(bucket: "tasks", where: ["due": ["lt": 3]], orderBy: nil, limit: nil)
        #expect(found.compactMap { $0["key"]?.stringValue }.sorted() == ["t0", "t1", "t2"])
    }
}
