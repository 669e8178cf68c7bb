import GRDB
import HostTesting
import JSON
import KeyValueStore
import Persistence
import Testing

/// localStorage's bucket of the kv store: its rows are kv items, its strings UTF-16 exactly, its
/// writes kv's, quota included. (Through `hybrid run`: HybridHostTests' WebStorageTests.)
@Suite("WebStorageBucket")
struct WebStorageBucketTests {
    func set(_ bucket: WebStorageBucket, _ key: [UInt16], _ value: [UInt16]) throws {
        try key.withUnsafeBufferPointer { key in
            try value.withUnsafeBufferPointer { value in try bucket.set(key: key, value: value) }
        }
    }

    func remove(_ bucket: WebStorageBucket, _ key: [UInt16]) throws {
        try key.withUnsafeBufferPointer { try bucket.remove(key: $0) }
    }

    func items(_ bucket: WebStorageBucket) throws -> String {
        String(decoding: try bucket.itemsJSON(), as: UTF8.self)
    }

    @Test("items come back in the order first set, an update keeping its place, as one JSON array")
    func order() throws {
        let folder = TemporaryFolder(prefix: "web-storage-bucket")
        defer { folder.remove() }
        let bucket = WebStorageBucket(store: try KeyValueStore(directory: folder.path))
        #expect(try items(bucket) == "[]")
        for key in ["b", "a", "c"] { try set(bucket, Array(key.utf16), Array("v\(key)".utf16)) }
        try set(bucket, Array("b".utf16), Array("again".utf16))
        try remove(bucket, Array("a".utf16))
        try remove(bucket, Array("missing".utf16))
        #expect(try items(bucket) == #"["b","again","c","vc"]"#)
        // A store opened again reads what was committed.
        #expect(try items(WebStorageBucket(store: try KeyValueStore(directory: folder.path))) == #"["b","again","c","vc"]"#)
        try bucket.clear()
        #expect(try items(bucket) == "[]")
    }

    @Test("lone surrogates, escapes and every plane survive as keys and values")
    func exactStrings() throws {
        let folder = TemporaryFolder(prefix: "web-storage-bucket")
        defer { folder.remove() }
        let bucket = WebStorageBucket(store: try KeyValueStore(directory: folder.path))
        try set(bucket, [0xD800, 0x61], [0x22, 0x5C, 0x0A, 0x00, 0x1F, 0xDC00])
        try set(bucket, Array("日本🎉".utf16), [0xDBFF, 0xDFFF, 0xDFFF])
        #expect(try items(bucket) == #"["\ud800a","\"\\\n\u0000\u001f\udc00","日本🎉","\#u{10FFFF}\udfff"]"#)
        // The same key again, lone surrogate and all, is the same row.
        try set(bucket, [0xD800, 0x61], [0x78])
        #expect(try items(bucket).hasPrefix(#"["\ud800a","x","#))
    }

    @Test("a row is a kv item: the value is the JSON of a string, readable by get; a row another tool wrote reads as its text")
    func rowsAreKvItems() throws {
        let folder = TemporaryFolder(prefix: "web-storage-bucket")
        defer { folder.remove() }
        let store = try KeyValueStore(directory: folder.path)
        let bucket = WebStorageBucket(store: store)
        try set(bucket, Array("token".utf16), Array("abc é".utf16))
        #expect(try store.get(bucket: WebStorageBucket.name, key: "token")?.value == "abc é")
        try store.center.writeNow { session in
            try session.db.execute(sql: "INSERT INTO kv_items (bucket, key, value, createdAt, updatedAt) VALUES ('', 'plain', CAST('no \"json\" é' AS BLOB), 0, 0)")
        }
        #expect(try items(bucket) == #"["token","abc é","plain","no \"json\" é"]"#)
    }

    @Test("a write past the file's quota fails with reason quota and changes nothing")
    func quota() throws {
        let folder = TemporaryFolder(prefix: "web-storage-bucket")
        defer { folder.remove() }
        let store = try KeyValueStore(directory: folder.path)
        try store.center.limit(bytes: 65536)
        let bucket = WebStorageBucket(store: store)
        try set(bucket, Array("keep".utf16), Array("kept".utf16))
        var reason: String?
        do {
            try set(bucket, Array("big".utf16), Array(repeating: 0x79, count: 200_000))
        } catch {
            if case .failed(let failure, _, _) = error as? Persistence.PersistenceError { reason = failure }
        }
        #expect(reason == "quota")
        #expect(try items(bucket) == #"["keep","kept"]"#)
    }
}
