import CurlTransport
import HTTPCaching
import HostTesting
@testable import Networking
import SystemIO
import Testing

/// The HTTP cache's names in memory: a key with no entry is told without a file operation, and
/// what is on disk is what a new run finds.
@Suite("HTTP cache index")
struct HTTPCacheIndexTests {
    static func entry(_ key: String, body: String) -> CacheEntry {
        let response = TransferResponse(status: 200, headers: [("cache-control", "max-age=60")], body: Array(body.utf8), url: "https://example.test/a",
                                        timing: TransferTiming(totalMs: 0, connectMs: 0, firstByteMs: 0), bodySize: Int64(body.utf8.count))
        return CacheEntry(key: key, response: response, now: HTTPDate.now())!
    }

    @Test("an entry's file name is the key's FNV-1a in 16 hex digits, as the files earlier runs left are named")
    func fileNames() {
        // FNV-1a 64: the offset basis for no bytes; "a" is a published test vector.
        #expect(HTTPCache.name(for: "") == "cbf29ce484222325.entry")
        #expect(HTTPCache.name(for: "a") == "af63dc4c8601ec8c.entry")
        #expect(HTTPCache.name(for: "foobar") == "85944171f73967e8.entry")
    }

    @Test("an entry saved by one run is held and read by the next; an unknown key is not held; a removed one is gone from disk and memory")
    func entriesOutliveTheRun() throws {
        let folder = TemporaryFolder(prefix: "http-cache-index")
        defer { folder.remove() }
        let path = folder.path + "/.http-cache"
        let first = HTTPCache(folder: path)
        #expect(!first.holds("GET https://example.test/a"))
        #expect(FileSystem.entries(of: path).isEmpty)
        first.save(Self.entry("GET https://example.test/a", body: "one"))
        #expect(first.holds("GET https://example.test/a"))
        #expect(first.load("GET https://example.test/a")?.body == Array("one".utf8))

        // A new run over the same folder reads the names from disk.
        let second = HTTPCache(folder: path)
        #expect(second.holds("GET https://example.test/a"))
        #expect(!second.holds("GET https://example.test/b"))
        #expect(second.load("GET https://example.test/a")?.body == Array("one".utf8))
        second.remove("GET https://example.test/a")
        #expect(!second.holds("GET https://example.test/a"))
        #expect(second.load("GET https://example.test/a") == nil)
        #expect(FileSystem.entries(of: path).filter { $0.hasSuffix(".entry") }.isEmpty)
        // The first run still names it: its read finds no file, a miss, never an error.
        #expect(first.load("GET https://example.test/a") == nil)
    }
}
