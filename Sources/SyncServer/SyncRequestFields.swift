import Foundation
import Hummingbird
import JSON
import SyncProtocol

/// How the sync routes read a request: its body, within ``SyncServerConfiguration/maxBodyBytes``
/// and as JSON, and its query and path parameters, each refused with 400 (413 for a body too
/// large) naming the field and what was expected.
struct SyncRequestFields: Sendable {
    let maxBodyBytes: Int
    let metrics: SyncMetrics

    /// The largest cursor or limit taken (2^53 - 1): a JavaScript client holds every integer up to
    /// it exactly, so a cursor it sends back is the one it was given.
    static let maximumInteger = 9_007_199_254_740_991

    /// The request body, refused with 413 past the limit: by its Content-Length when it declares
    /// one, else while it is read.
    func body(of request: Request) async throws -> [UInt8] {
        let limit = maxBodyBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            metrics.refused(by: "body")
            throw Self.tooLarge(limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            metrics.refused(by: "body")
            throw Self.tooLarge(limit)
        }
    }

    static func tooLarge(_ limit: Int) -> SyncServerError {
        SyncServerError(.tooLarge, "request body larger than \(limit) bytes")
    }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw SyncServerError(.badRequest, "malformed JSON at line \(error.line), column \(error.column): \(error.message)")
        }
    }

    /// A whole-number query parameter, at most `maximum` (``maximumInteger`` unless told); `name`
    /// and what was expected appear in the refusal.
    static func integer(_ text: Substring?, name: String, default value: Int, minimum: Int, maximum: Int = maximumInteger) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= minimum, number <= maximum else {
            throw SyncServerError(.badRequest, "\(name): expected an integer from \(minimum) to \(maximum), got \"\(text)\"", path: "/\(name)")
        }
        return number
    }

    /// A path parameter, percent-decoded (Hummingbird hands it over as sent, unlike the query's):
    /// a packet pushed as `p 1` is asked for as `/v1/packets/p%201`.
    static func pathParameter(_ raw: String, name: String) throws -> String {
        guard let text = raw.removingPercentEncoding else {
            throw SyncServerError(.badRequest, "\(name): malformed percent-encoding in \"\(raw)\"", path: "/" + name)
        }
        try refuseNUL(text, name: name, at: "/" + name)
        return text
    }

    /// A text query parameter (nil when absent), refused when it holds U+0000 (see ``refuseNUL(_:name:at:)``).
    static func text(_ value: Substring?, name: String) throws -> String? {
        guard let value else { return nil }
        try refuseNUL(value, name: name, at: "/" + name)
        return String(value)
    }

    /// Ids are stored as SQLite text, which ends at U+0000: `a\u0000b` would be taken for `a`.
    static func refuseNUL(_ text: some StringProtocol, name: String, at path: String) throws {
        guard !text.utf8.contains(0) else {
            throw SyncServerError(.badRequest, "\(name): expected no U+0000 character", path: path)
        }
    }
}
