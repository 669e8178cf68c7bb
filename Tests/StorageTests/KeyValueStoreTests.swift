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
}
