import HostTesting
import HTTPServing
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

/// The serving layer's compression: `Accept-Encoding` read as RFC 9110 has it, and answers
/// compressed on a real server on 127.0.0.1, decoded by python3's zlib (not ours).
@Suite("Response compression")
struct ResponseCompressionTests {
    @Test("Accept-Encoding picks the coding the request weighs highest, and the identity when it refuses or prefers it", arguments: [
        (nil, nil),
        ("gzip", "gzip"),
        ("deflate", "deflate"),
        ("gzip, deflate, br", "gzip"),
        ("deflate, gzip", "gzip"),
        ("GZIP", "gzip"),
        ("x-gzip", "gzip"),
        ("gzip;q=0.5, deflate;q=0.8", "deflate"),
        ("gzip ; q=0.9 , deflate ; q=0.1", "gzip"),
        ("gzip;q=0", nil),
        ("gzip;q=0, deflate;q=0", nil),
        ("gzip;q=0, *", "deflate"),
        ("*", "gzip"),
        ("*;q=0", nil),
        ("*;q=0, identity", nil),
        ("identity", nil),
        ("", nil),
        ("br, zstd", nil),
        ("gzip;q=0.5, identity;q=1", nil),
        ("gzip;q=1, identity;q=0.5", "gzip"),
        ("gzip;q=abc, deflate", "deflate"),
        ("gzip;q=2, deflate;q=0.3", "deflate"),
        ("gzip;q=0.000", nil),
    ] as [(String?, String?)])
    func acceptEncodingIsRead(field: String?, coding: String?) {
        #expect(AcceptEncoding(field.map { [$0] } ?? []).preferred(among: ["gzip", "deflate"]) == coding)
    }

    @Test("the media types compressed are text's, and never bytes or already-compressed payloads", arguments: [
        ("application/json; charset=utf-8", true), ("text/html; charset=utf-8", true), ("text/plain; version=0.0.4", true),
        ("image/svg+xml", true), ("application/javascript", true), ("application/problem+json", true), ("TEXT/CSS", true),
        ("application/octet-stream", false), ("application/zstd", false), ("application/gzip", false), ("image/png", false),
        ("text/event-stream", false), (nil, false),
    ] as [(String?, Bool)])
    func compressibleTypes(type: String?, compressible: Bool) {
        #expect(ResponseCompressionMiddleware<TestContext>.compressible(type) == compressible)
    }

    /// A JSON page of about 8 KB, as a pull page or a patch status is.
    static let page: JSONValue = .array((0..<120).map { index in
        ["opId": .string("op-\(index)"), "table": "tasks", "kind": "insert", "row": ["title": .string("task number \(index)"), "done": .bool(index % 2 == 0)]]
    })

    /// A router as a server builds it, with routes answering a large and a small JSON body, bytes,
    /// zstd, 204, 304, a body already encoded and one streamed without a length.
    static func router() -> Router<TestContext> {
        let router = Router(context: TestContext.self)
        router.add(middleware: RequestMetricsMiddleware(RecordedAnswers()))
        router.add(middleware: ResponseCompressionMiddleware())
        router.add(middleware: ErrorResponseMiddleware(translate: translate))
        let large = ByteBuffer(bytes: JSONWriter.bytes(page))
        let bytes = ByteBuffer(bytes: Array(repeating: UInt8(7), count: 8192))
        router.get("/large") { _, _ in Response.json(.ok, page, headers: [.eTag: "\"v1\""]) }
        router.head("/large") { _, _ in Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: large)) }
        router.get("/small") { _, _ in Response.json(.ok, ["ok": true]) }
        router.get("/bytes") { _, _ in Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: bytes)) }
        router.get("/zstd") { _, _ in Response(status: .ok, headers: [.contentType: "application/zstd"], body: ResponseBody(byteBuffer: bytes)) }
        router.get("/empty") { _, _ in Response(status: .noContent, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: large)) }
        router.get("/unchanged") { _, _ in Response(status: .notModified, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: large)) }
        router.get("/encoded") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .contentEncoding: "br"], body: ResponseBody(byteBuffer: large))
        }
        router.get("/streamed") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
                try await writer.write(large)
                try await writer.finish(nil)
            })
        }
        router.get("/missing-large") { _, _ -> Response in
            throw Refusal(status: .notFound, message: String(repeating: "no such thing; ", count: 200))
        }
        return router
    }

    static func get(_ client: some TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, acceptEncoding: String?) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        return try await client.executeRequest(uri: uri, method: method, headers: headers, body: nil)
    }

    @Test("a large JSON answer asked for in gzip or deflate comes back in it, decodes to the plain answer, with Vary and its compressed length")
    func largeAnswerIsCompressed() async throws {
        try await Application(router: Self.router()).test(.live) { client in
            let plain = try await Self.get(client, "/large", acceptEncoding: nil)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            #expect(plain.headers[.eTag] == "\"v1\"")
            let plainBytes = Array(plain.body.readableBytesView)
            #expect(plainBytes == JSONWriter.bytes(Self.page))
            for coding in ["gzip", "deflate"] {
                let response = try await Self.get(client, "/large", acceptEncoding: coding)
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] == coding)
                #expect(response.headers[.vary] == "Accept-Encoding")
                #expect(response.headers[.eTag] == "W/\"v1\"")
                #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                #expect(response.body.readableBytes * 3 < plainBytes.count, "\(coding): \(response.body.readableBytes) of \(plainBytes.count) bytes")
                #expect(try ContentCoding.decode(Array(response.body.readableBytesView), coding: coding) == plainBytes)
            }
            // An error's body is an answer like any other.
            let missing = try await Self.get(client, "/missing-large", acceptEncoding: "gzip")
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentEncoding] == "gzip")
            let refusal = try JSONParser.parse(try ContentCoding.decode(Array(missing.body.readableBytesView), coding: "gzip"))
            #expect(refusal["error"]?.stringValue?.hasPrefix("no such thing") == true)
        }
    }

    @Test("identity, q=0 and no Accept-Encoding get the plain answer")
    func refusedCodingsGetThePlainAnswer() async throws {
        try await Application(router: Self.router()).test(.live) { client in
            let plain = Array(try await Self.get(client, "/large", acceptEncoding: nil).body.readableBytesView)
            for field in ["identity", "gzip;q=0", "gzip;q=0, deflate;q=0", "*;q=0", "br", "gzip;q=0.3, identity"] {
                let response = try await Self.get(client, "/large", acceptEncoding: field)
                #expect(response.headers[.contentEncoding] == nil, "\(field)")
                #expect(Array(response.body.readableBytesView) == plain, "\(field)")
                #expect(response.headers[.contentLength] == String(plain.count), "\(field)")
            }
        }
    }

    @Test("small bodies, bytes, zstd, an encoded body, a streamed body and HEAD are left as they are")
    func othersAreLeftAlone() async throws {
        try await Application(router: Self.router()).test(.live) { client in
            for uri in ["/small", "/bytes", "/zstd", "/encoded", "/streamed"] {
                let response = try await Self.get(client, uri, acceptEncoding: "gzip, deflate")
                #expect(response.headers[.contentEncoding] == (uri == "/encoded" ? "br" : nil), "\(uri)")
                #expect(response.headers[.vary] == nil, "\(uri)")
            }
            #expect(try await Self.get(client, "/bytes", acceptEncoding: "gzip").body.readableBytes == 8192)
            #expect(try await Self.get(client, "/streamed", acceptEncoding: "gzip").body.readableBytes == JSONWriter.bytes(Self.page).count)
            let head = try await Self.get(client, "/large", method: .head, acceptEncoding: "gzip")
            #expect(head.status == .ok)
            #expect(head.headers[.contentEncoding] == nil)
            #expect(head.headers[.contentLength] == String(JSONWriter.bytes(Self.page).count))
        }
    }

    /// In process (no HTTP codec), since a 204 or 304 with a body is what a server must not send.
    @Test("204 and 304 are left as they are, whatever their body")
    func bodilessStatusesAreLeftAlone() async throws {
        try await Application(router: Self.router()).test(.router) { client in
            for uri in ["/empty", "/unchanged"] {
                let response = try await Self.get(client, uri, acceptEncoding: "gzip")
                #expect(response.headers[.contentEncoding] == nil, "\(uri)")
                #expect(response.headers[.vary] == nil, "\(uri)")
            }
        }
    }
}
