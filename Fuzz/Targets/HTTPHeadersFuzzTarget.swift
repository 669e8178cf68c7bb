import CurlTransport
import JSON
import HTTPCaching

/// A response's head, line by line, as curl hands it to the transfer (`ResponseHeaderLine`), then
/// what the HTTP cache reads from it: `Cache-Control`, `Expires`, `Date`, `Age` and the validators
/// (`CacheEntry`, `CacheControl`, `HTTPDate`). The input's lines are the head (a status line, then
/// `Name: value` lines); the last header block counts, as after a `100 Continue`. A response the
/// cache keeps is fresh for a finite, non-negative time, and its entry reads back from its file
/// form as it was written; a 304 with the same head revalidates it.
enum HTTPHeadersFuzzTarget {
    static let target = FuzzTarget(name: "http", summary: "response header lines; Cache-Control, HTTP dates, cache entries and their file form") { input throws(FuzzFinding) in
        try run(input)
    }

    /// 2026-11-23T00:00:00Z.
    static let now = 1_795_392_000.0

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        var headers: [(name: String, value: String)] = []
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            (Array(line) + [13, 10]).withUnsafeBytes { bytes in
                switch ResponseHeaderLine(bytes) {
                case .status: headers.removeAll()
                case .field(let name, let value): headers.append((name, value))
                case .end, .other: break
                }
            }
        }
        for (name, value) in headers {
            guard !name.contains(where: { $0.isASCII && $0.isUppercase }) else {
                throw FuzzFinding("http", "a header name kept upper case: \(name)")
            }
            // Whatever header holds it, a max-age read is delta-seconds: a whole number, at most 2³¹.
            if let maxAge = CacheControl(value).maxAge, !(0...2_147_483_648).contains(maxAge) || maxAge.rounded() != maxAge {
                throw FuzzFinding("http", "\"\(value)\" read as max-age \(maxAge)")
            }
            if let date = HTTPDate.parse(value), !date.isFinite {
                throw FuzzFinding("http", "the date \"\(value)\" read as \(date)")
            }
        }
        let response = TransferResponse(status: 200, headers: headers, body: Array(input.prefix(64)), url: "https://example.test/a",
                                        timing: TransferTiming(totalMs: 0, connectMs: 0, firstByteMs: 0), bodySize: Int64(min(input.count, 64)))
        guard var entry = CacheEntry(key: "GET https://example.test/a", response: response, now: now) else { return }
        try check(entry)
        entry.revalidated(by: TransferResponse(status: 304, headers: headers, body: [], url: response.url, timing: response.timing, bodySize: 0),
                          now: now + 1)
        try check(entry)
    }

    static func check(_ entry: CacheEntry) throws(FuzzFinding) {
        guard entry.freshFor.isFinite, entry.freshFor >= 0 else {
            throw FuzzFinding("http", "an entry fresh for \(entry.freshFor) seconds")
        }
        guard let read = CacheEntry(decoding: entry.encoded()) else {
            throw FuzzFinding("http", "an entry does not read back from its file form: \(String(decoding: entry.encoded(), as: UTF8.self))")
        }
        guard read.key == entry.key, read.status == entry.status, read.url == entry.url, read.storedAt == entry.storedAt,
              read.freshFor == entry.freshFor, read.body == entry.body,
              read.headers.map({ [$0.name, $0.value] }) == entry.headers.map({ [$0.name, $0.value] }) else {
            throw FuzzFinding("http", "an entry changed through its file form")
        }
    }
}
