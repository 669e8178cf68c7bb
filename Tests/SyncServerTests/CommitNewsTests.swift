@testable import SyncServer
import Testing

/// A commit's news as PostgreSQL's NOTIFY carries it: the entries come back as they went, and a
/// payload that would not fit drops what it must, down to news from anywhere.
@Suite("commit news")
struct CommitNewsTests {
    static func entry(_ seq: Int, data: String? = "{\"title\":\"a \\\"quoted\\\" é\"}", keys: Set<String> = ["s:team-1", "u:alice"]) -> LogEntry {
        LogEntry(seq: seq, deviceId: "d1", opId: "op-\(seq)", dataId: "row-\(seq)", table: "todos", type: "insert", data: data,
                 dependencyId: seq > 1 ? "op-\(seq - 1)" : nil, timestamp: 1_763_942_400.123 + Double(seq), scopeBefore: seq == 2 ? "team-0" : nil,
                 image: seq == 3 ? "{\"id\":\"row-3\"}" : nil, keys: keys)
    }

    @Test("entries go out in the payload and come back equal, with the keys and the seq before them")
    func roundTrip() {
        let entries = [Self.entry(41), Self.entry(42), Self.entry(43, data: nil)]
        let payload = CommitNews.payload(lastSeq: 43, keys: ["s:team-1", "u:alice"], after: 40, entries: entries)
        let news = CommitNews(payload: payload)
        #expect(news.keys == ["s:team-1", "u:alice"])
        #expect(news.entries == entries)
        #expect(news.carried?.after == 40)
        #expect(news.carried?.entries == entries)
    }

    @Test("too big for NOTIFY: the keys without the entries; too many keys: news from anywhere")
    func tooBig() {
        let big = String(repeating: "x", count: 8_000)
        let news = CommitNews(payload: CommitNews.payload(lastSeq: 2, keys: ["s:t"], after: 1, entries: [Self.entry(2, data: big)]))
        #expect(news.keys == ["s:t"])
        #expect(news.entries == nil && news.carried == nil)
        let keys = (0..<2_000).map { "s:team-\($0)" }
        let payload = CommitNews.payload(lastSeq: 2, keys: keys, after: 1, entries: [Self.entry(2)])
        #expect(payload.utf8.count < 8_000)
        #expect(CommitNews(payload: payload) == .anywhere)
    }

    @Test("what cannot be taken as entries is news from anywhere or keys alone: garbage, a compaction's {}, a gap, a malformed entry")
    func notCarried() {
        #expect(CommitNews(payload: "not json") == .anywhere)
        #expect(CommitNews(payload: "{}") == .anywhere)
        #expect(CommitNews(payload: #"{"seq":3,"keys":["s:t"]}"#) == CommitNews(keys: ["s:t"]))
        // Seqs must run on from `after`: news whose entries skip one is not appended.
        #expect(CommitNews(keys: nil, entries: [Self.entry(2), Self.entry(4)], after: 1).carried == nil)
        #expect(CommitNews(keys: nil, entries: [Self.entry(3)], after: 1).carried == nil)
        let malformed = #"{"seq":2,"keys":["s:t"],"after":1,"entries":[[2,"d1"]]}"#
        #expect(CommitNews(payload: malformed) == CommitNews(keys: ["s:t"]))
    }
}
