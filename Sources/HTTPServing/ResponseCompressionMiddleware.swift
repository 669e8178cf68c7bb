import Deflate
import Hummingbird

/// Compresses an answer with gzip or deflate when the request's `Accept-Encoding` asks for one
/// (``AcceptEncoding``: q-values, `q=0`, `*`, `identity`), as a production server does: JSON pages
/// of a sync pull or a patch check shrink several times over.
///
/// An answer is compressed when all of these hold: the request is not `HEAD`; the status is not
/// 204, 206 or 304; it has no `Content-Encoding` and no `Cache-Control: no-transform`; its type is
/// text (``compressible(_:)``: JSON, text, HTML, SVG, JavaScript, XML; never
/// `application/octet-stream`, `application/zstd` or another already-compressed payload); its
/// length is known and from ``minimumBytes`` to ``maximumBytes``; and the compressed body is
/// smaller. Such an answer gets `Vary: Accept-Encoding` whether or not this request asked, so that a
/// cache keeps the two forms apart; a compressed one gets `Content-Encoding`, its new
/// `Content-Length`, and a strong `ETag` made weak (the bytes differ).
///
/// Only answers whose length is known are compressed, and only once the handler has returned
/// them: a held answer (the sync server's long-polled pull) is compressed after it wakes, which
/// costs it the compression's time alone (some 200 µs of CPU for a 30 KB page at level 6). A body
/// streamed without a length is sent as it is, never held back to compress: none of the servers
/// streams one today.
///
/// Added to the router before ``ErrorResponseMiddleware`` (so that error bodies are compressed too)
/// and after ``RequestMetricsMiddleware`` (so that the time counted includes the compression).
///
/// ```swift
/// router.add(middleware: RequestMetricsMiddleware(metrics))
/// router.add(middleware: ResponseCompressionMiddleware())
/// router.add(middleware: ErrorResponseMiddleware { error, request in MyRefusal(error) })
/// ```
public struct ResponseCompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Bodies below this many bytes are sent as they are: under a packet or two, gzip's header and
    /// the work saves little.
    public let minimumBytes: Int
    /// Bodies above this are sent as they are rather than gathered in memory to compress.
    public let maximumBytes: Int
    /// zlib's level, 1 (fastest) to 9; 6 is zlib's and node's default.
    public let level: Int32

    /// The codings offered, the server's preference first.
    static var codings: [String] { ["gzip", "deflate"] }

    public init(minimumBytes: Int = 1024, maximumBytes: Int = 32 << 20, level: Int32 = 6) {
        self.minimumBytes = minimumBytes
        self.maximumBytes = maximumBytes
        self.level = level
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard request.method != .head, ![204, 206, 304].contains(response.status.code), response.status.code >= 200,
              response.headers[.contentEncoding] == nil,
              !(response.headers[.cacheControl]?.lowercased().contains("no-transform") ?? false),
              Self.compressible(response.headers[.contentType]),
              let length = response.body.contentLength, length >= minimumBytes, length <= maximumBytes else {
            return response
        }
        Self.addVary(to: &response.headers)
        guard let coding = AcceptEncoding(request.headers[values: .acceptEncoding]).preferred(among: Self.codings),
              let format = ZlibStream.Format(rawValue: coding) else {
            return response
        }
        let (body, trailers) = try await Self.collect(response.body, reserving: length)
        guard let compressed = try? Self.compress(body, format: format, level: level), compressed.readableBytes < body.readableBytes else {
            response.body = Self.body(body, trailers: trailers)
            return response
        }
        response.headers[.contentEncoding] = coding
        if let tag = response.headers[.eTag], !tag.hasPrefix("W/") { response.headers[.eTag] = "W/" + tag }
        // Setting the body sets Content-Length to the compressed length.
        response.body = Self.body(compressed, trailers: trailers)
        return response
    }

    /// Whether a body of `contentType` is text worth compressing: `text/*` (not `text/event-stream`,
    /// whose events must not wait in a compressor), JSON and `+json`, XML and `+xml` (SVG among
    /// them), JavaScript. Anything else (bytes, images, archives, zstd) is left as it is.
    public static func compressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() } ?? ""
        if media.hasPrefix("text/") { return media != "text/event-stream" }
        if media.hasSuffix("+json") || media.hasSuffix("+xml") { return true }
        return ["application/json", "application/javascript", "application/xml", "application/x-javascript", "image/svg+xml"].contains(media)
    }

    /// `Vary: Accept-Encoding` added to the answer's own `Vary`, unless it already says so or `*`.
    static func addVary(to headers: inout HTTPFields) {
        let fields = headers[values: .vary]
        let vary = fields.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() } }
        guard !vary.contains("accept-encoding"), !vary.contains("*") else { return }
        headers[.vary] = (fields + ["Accept-Encoding"]).joined(separator: ", ")
    }

    /// The body's bytes and trailing fields, as its writer gives them.
    static func collect(_ body: ResponseBody, reserving length: Int) async throws -> (ByteBuffer, HTTPFields?) {
        let gathered = GatheredBody(reserving: length)
        try await body.write(BodyGatherer(gathered: gathered))
        return (gathered.bytes, gathered.trailers)
    }

    static func body(_ bytes: ByteBuffer, trailers: HTTPFields?) -> ResponseBody {
        guard let trailers else { return ResponseBody(byteBuffer: bytes) }
        return ResponseBody(contentLength: bytes.readableBytes) { writer in
            try await writer.write(bytes)
            try await writer.finish(trailers)
        }
    }

    /// `input` compressed whole in `format`.
    static func compress(_ input: ByteBuffer, format: ZlibStream.Format, level: Int32) throws -> ByteBuffer {
        let stream = try ZlibStream(.compress, format: format, level: level)
        let pieces = try input.withUnsafeReadableBytes { bytes in try stream.compress(bytes, finish: true) }
        var output = ByteBuffer()
        output.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces {
            output.writeBytes(piece.bytes)
            piece.deallocate()
        }
        return output
    }
}

/// What a ``BodyGatherer`` was given. A class, since a body consumes the writer it writes to.
final class GatheredBody {
    var bytes: ByteBuffer
    var trailers: HTTPFields?

    init(reserving length: Int) {
        bytes = ByteBuffer()
        bytes.reserveCapacity(length)
    }
}

/// A response body's writer that keeps what it is given, for ``ResponseCompressionMiddleware``.
struct BodyGatherer: ResponseBodyWriter {
    let gathered: GatheredBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        gathered.bytes.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        gathered.trailers = trailingHeaders
    }
}
