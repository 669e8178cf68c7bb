import CurlTransport
import HTTPCaching
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

    /// Found while writing the http harness of `make fuzz` (the fuzzer had not put "max-age=" and
    /// "inf" together in 150 s): max-age and Age were read with `Double(_:)`, which takes "inf",
    /// "1e999", "0x10" and "-5". A response could be fresh for ever, and then its cache file
    /// (JSON, which has no infinity) never read back; a negative Age made a response fresher.
    @Test("max-age is delta-seconds: digits only, and more than 2³¹ reads as 2³¹", arguments: [
        ("max-age=60", 60.0), ("public, max-age=\"60\"", 60), ("max-age=0", 0), ("max-age=99999999999999999999999", 2_147_483_648),
        ("max-age=inf", nil), ("max-age=1e999", nil), ("max-age=1e3", nil), ("max-age=0x10", nil), ("max-age=-5", nil),
        ("max-age=nan", nil), ("max-age=", nil), ("max-age=+5", nil), ("max-age=6 0", nil),
    ] as [(String, Double?)])
    func maxAge(header: String, seconds: Double?) {
        #expect(CacheControl(header).maxAge == seconds)
    }

    @Test("an Age that is not delta-seconds is ignored; one larger than the freshness leaves none")
    func age() throws {
        func freshness(_ age: String) -> Double? {
            CacheEntry(key: "k", response: Self.response([("cache-control", "max-age=60"), ("age", age), ("etag", "\"v\"")]), now: Self.now)?.freshFor
        }
        #expect(freshness("30") == 30)
        #expect(freshness("-100") == 60)
        #expect(freshness("-1e999") == 60)
        #expect(freshness("1e999") == 60)
        #expect(freshness("99999999999") == 0)
        let entry = try #require(CacheEntry(key: "k", response: Self.response([("cache-control", "max-age=inf"), ("etag", "\"v\"")]), now: Self.now))
        #expect(entry.freshFor == 0)
        #expect(CacheEntry(decoding: entry.encoded())?.freshFor == 0)
    }
}
