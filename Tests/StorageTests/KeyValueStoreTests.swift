import JSON
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
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path, serializer: ReversingSerializer())
        try await store.set(.init(bucket: "b", key: "k", value: ["a": [1, 2]]))
        #expect(try store.get(bucket: "b", key: "k")?.value == ["a": [1, 2]])
        let fresh = try KeyValueStore(directory: directory.path, serializer: ReversingSerializer())
        #expect(try fresh.get(bucket: "b", key: "k")?.value == ["a": [1, 2]])
    }

    @Test("a get after a get is served by the cache; a commit to the key invalidates it")
    func cacheInvalidation() async throws {
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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

    @Test("setMany refuses an oversized value, naming the item, and writes none")
    func setManyNamesTheField() async throws {
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyValueStore(directory: directory.path)
        _ = try await store.defineIndex(bucket: "tasks", columns: ["due": "INTEGER"], from: "value")
        _ = try await store.setMany((0..<10).map { .init(bucket: "tasks", key: "t\($0)", value: ["due": .number(Double($0))]) }
                                    + [.init(bucket: "other", key: "x", value: 1)])
        let found = try await store.query(bucket: "tasks", where: ["due": ["lt": 3]], orderBy: nil, limit: nil)
        #expect(found.compactMap { $0["key"]?.stringValue }.sorted() == ["t0", "t1", "t2"])
    }
}
