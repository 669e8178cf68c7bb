import CurlTransport
import JSON

/// One cached GET response and how long it stays fresh (RFC 9111, the parts a private client
/// cache needs: max-age, Expires, no-store, no-cache, ETag and Last-Modified validators).
/// A target of its own, below Networking, so that the header harness of `make fuzz` reads
/// response heads through these without building SwiftNIO and its TLS for the fuzzer.
package struct CacheEntry: Sendable {
    package var key: String
    package var status: Int
    /// The status line's reason phrase ("" over HTTP/2, and in entries stored before it was kept).
    package var statusText = ""
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    package var url: String
    /// When the response was received or last revalidated, in seconds since 1970.
    package var storedAt: Double
    /// Seconds it is fresh for after `storedAt`; 0 means revalidate before every use.
    package var freshFor: Double

    package var etag: String? { header("etag") }
    package var lastModified: String? { header("last-modified") }

    /// The conditional headers that revalidate this entry: If-None-Match, If-Modified-Since.
    package var validators: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }

    package func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    package func isFresh(at now: Double) -> Bool { now < storedAt + freshFor }

    /// The entry for a response, or nil when the response may not be kept or could never be reused.
    package init?(key: String, response: TransferResponse, now: Double) {
        guard response.status == 200 else { return nil }
        let control = CacheControl(response.header("cache-control"))
        guard !control.noStore else { return nil }
        var freshFor = 0.0
        if control.noCache {
            freshFor = 0
        } else if let maxAge = control.maxAge {
            freshFor = maxAge
        } else if let expires = response.header("expires").flatMap(HTTPDate.parse) {
            let date = response.header("date").flatMap(HTTPDate.parse) ?? now
            freshFor = max(0, expires - date)
        }
        let age = response.header("age").flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: " \t")) } ?? 0
        freshFor = max(0, freshFor - age)
        let hasValidator = response.header("etag") != nil || response.header("last-modified") != nil
        guard freshFor > 0 || hasValidator else { return nil }
        self.key = key
        self.status = response.status
        self.statusText = response.statusText
        self.headers = response.headers
        self.body = response.body
        self.url = response.url
        self.storedAt = now
        self.freshFor = freshFor
    }

    /// A 304 answer: the stored body stays, its headers and freshness are renewed.
    package mutating func revalidated(by response: TransferResponse, now: Double) {
        for (name, value) in response.headers where !["content-length", "content-encoding", "transfer-encoding"].contains(name) {
            if let index = headers.firstIndex(where: { $0.name == name }) {
                headers[index].value = value
            } else {
                headers.append((name, value))
            }
        }
        let control = CacheControl(header("cache-control"))
        storedAt = now
        if control.noCache { freshFor = 0 } else if let maxAge = control.maxAge { freshFor = maxAge }
    }

    package var response: TransferResponse {
        TransferResponse(status: status, statusText: statusText, headers: headers, body: body, url: url,
                         timing: TransferTiming(totalMs: 0, connectMs: 0, firstByteMs: 0), bodySize: Int64(body.count))
    }

    // MARK: on disk: one line of JSON, a newline, then the body's bytes.

    package func encoded() -> [UInt8] {
        let meta: JSONValue = [
            "key": .string(key), "status": .number(Double(status)), "statusText": .string(statusText), "url": .string(url),
            "storedAt": .number(storedAt), "freshFor": .number(freshFor),
            "headers": .array(headers.map { .array([.string($0.name), .string($0.value)]) }),
        ]
        return Array(JSONWriter.write(meta).utf8) + [UInt8(ascii: "\n")] + body
    }

    package init?(decoding bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
              let meta = try? JSONParser.parse(Array(bytes[..<newline])),
              let key = meta["key"]?.stringValue, let status = meta["status"]?.intValue, let url = meta["url"]?.stringValue,
              let storedAt = meta["storedAt"]?.numberValue, let freshFor = meta["freshFor"]?.numberValue,
              let headers = meta["headers"]?.arrayValue else { return nil }
        self.key = key
        self.status = status
        self.statusText = meta["statusText"]?.stringValue ?? ""
        self.url = url
        self.storedAt = storedAt
        self.freshFor = freshFor
        self.headers = headers.compactMap { pair in
            guard let name = pair[0]?.stringValue, let value = pair[1]?.stringValue else { return nil }
            return (name, value)
        }
        self.body = Array(bytes[(newline + 1)...])
    }
}
