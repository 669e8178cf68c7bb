import CurlTransport
import Networking
import Testing

/// What the HTTP cache reads from a response's head: dates, Cache-Control, Age. The heads come from
/// whatever server an app talks to, so nothing in them may stop the process.
@Suite("HTTP cache headers")
struct HTTPCacheHeaderTests {
    static let now = 1_795_392_000.0

    static func response(_ headers: [(String, String)]) -> TransferResponse {
        TransferResponse(status: 200, headers: headers, body: [1], url: "https://example.test/a",
                         timing: TransferTiming(totalMs: 0, connectMs: 0, firstByteMs: 0), bodySize: 1)
    }

    @Test("an IMF-fixdate reads as seconds since 1970")
    func fixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
    }

    /// Found by `make fuzz` (target http): a year of 15 digits trapped converting it to the C
    /// library's 32-bit field, stopping the process on any response that carried it in `Expires`
    /// or `Date` while `cache: true`.
    @Test("a date whose fields do not fit is no date, not a crash", arguments: [
        "Sun, 06 Nov 199444444444444 09:49:38 GMT",
        "Sun, 99999999999 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 99999999999:00:00 GMT",
        "Sun, 06 Nov 1994 08:49:99999999999 GMT",
        "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, -6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov +994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37:12 GMT",
        "Sun, 6 Nov 1994 8:49:37 GMT",
    ])
    func outOfRangeDate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
        let entry = CacheEntry(key: "k", response: Self.response([("expires", text), ("date", text), ("etag", "\"v\"")]), now: Self.now)
        #expect(entry?.freshFor == 0)
    }
}
