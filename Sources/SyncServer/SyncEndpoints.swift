import Foundation
import Hummingbird
import JSON
import SyncProtocol

/// The HTTP face of a ``SyncStore``: routes, authentication, body limits, and the mapping of every
/// outcome and refusal to a status and a JSON body.
///
/// Bodies are read and written with our JSON module, not Codable, so that refusals name the field at
/// fault by its path. Checks run cheapest and most fundamental first (token, size, syntax, device,
/// fields), and nothing is written until all of them pass.
struct SyncEndpoints: Sendable {
    let store: any SyncStore
    let configuration: SyncServerConfiguration

    /// The most ops one pull may return, whatever `limit` asks for.
    static let maximumPullLimit = 10_000
    static let defaultPullLimit = 1_000

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v1/health") { _, _ in Self.response(200, ["ok": true]) }
        router.post("/v1/devices") { request, _ in await respond { try await registerDevice(request) } }
        router.post("/v1/push") { request, _ in await respond { try await push(request) } }
        router.get("/v1/pull") { request, _ in await respond { try await pull(request) } }
        router.get("/v1/packets/:packetId") { request, context in
            await respond { try await packet(request, packetId: context.parameters.get("packetId") ?? "") }
        }
        router.get("/v1/snapshot") { request, _ in await respond { try await snapshot(request) } }
        return router
    }

    // MARK: Endpoints

    /// `POST /v1/devices {"name"?}` → 201 `{"deviceId", "token"}`.
    func registerDevice(_ request: Request) async throws -> (Int, JSONValue) {
        let bytes = try await body(of: request)
        var name: String?
        if !bytes.isEmpty {
            name = try FieldReader(try parse(bytes), at: "").optionalString("name")  // SyncWireError → 400 in respond
        }
        let token = DeviceToken.generate()
        let deviceId = try await store.registerDevice(name: name, tokenDigest: DeviceToken.digest(token), now: Self.now())
        return (201, ["deviceId": .string(deviceId), "token": .string(token)])
    }

    /// `POST /v1/push` → 200 applied, 202 held, 409 rejected.
    func push(_ request: Request) async throws -> (Int, JSONValue) {
        let device = try await authenticate(request)
        let body = try parse(try await body(of: request))
        if case .string(let claimed)? = body["deviceId"], claimed != device {
            throw Self.otherDevice(claimed, path: "/deviceId")
        }
        let packet = try PushPacket.decode(body)
        let now = Self.now()
        try await store.sweep(now: now, holdSeconds: configuration.holdSeconds)
        switch try await store.push(packet, now: now) {
        case .applied(let applied, let duplicates, let cursor):
            return (200, ["applied": .array(applied.map(JSONValue.string)), "duplicates": .array(duplicates.map(JSONValue.string)),
                          "cursor": .number(Double(cursor))])
        case .held(let dependency):
            return (202, ["held": true, "packetId": .string(packet.packetId), "waitingFor": .string(dependency)])
        case .rejected(let reason):
            var answer = SyncServerError(.conflict, "packet \(packet.packetId) was rejected: \(reason)").json
            answer = .object(["rejected": true, "packetId": .string(packet.packetId), "reason": .string(reason),
                              "error": answer["error"] ?? .null])
            return (409, answer)
        }
    }

    /// `GET /v1/pull?deviceId&after&limit` → `{"ops", "cursor", "more"}`.
    func pull(_ request: Request) async throws -> (Int, JSONValue) {
        let device = try await authenticate(request)
        let query = request.uri.queryParameters
        try checkDevice(query["deviceId"].map(String.init), is: device)
        let after = try Self.integer(query["after"], name: "after", default: 0, minimum: 0)
        let limit = try Self.integer(query["limit"], name: "limit", default: Self.defaultPullLimit, minimum: 1)
        let page = try await store.pull(after: after, limit: min(limit, Self.maximumPullLimit))
        return (200, page.json)
    }

    /// `GET /v1/packets/{packetId}?deviceId` → the packet's record, 404 when unknown.
    func packet(_ request: Request, packetId: String) async throws -> (Int, JSONValue) {
        let device = try await authenticate(request)
        try checkDevice(request.uri.queryParameters["deviceId"].map(String.init), is: device)
        let now = Self.now()
        try await store.sweep(now: now, holdSeconds: configuration.holdSeconds)
        guard let record = try await store.packet(deviceId: device, packetId: packetId) else {
            throw SyncServerError(.notFound, "no packet \(packetId) from device \(device)")
        }
        return (200, record.json)
    }

    /// `GET /v1/snapshot` → the materialized state.
    func snapshot(_ request: Request) async throws -> (Int, JSONValue) {
        _ = try await authenticate(request)
        return (200, try await store.snapshot().json)
    }

    // MARK: Checks

    /// The device that `Authorization: Bearer TOKEN` names.
    func authenticate(_ request: Request) async throws -> String {
        guard let header = request.headers[.authorization] else {
            throw SyncServerError(.unauthorized, "missing Authorization header, expected \"Bearer TOKEN\" (POST /v1/devices gives one)")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw SyncServerError(.unauthorized, "Authorization: expected \"Bearer TOKEN\"")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard let device = try await store.device(tokenDigest: DeviceToken.digest(token)) else {
            throw SyncServerError(.unauthorized, "Authorization: unknown token")
        }
        return device
    }

    func checkDevice(_ claimed: String?, is device: String) throws {
        guard let claimed, !claimed.isEmpty else {
            throw SyncServerError(.badRequest, "deviceId: expected the device's id in the query, missing", path: "/deviceId")
        }
        guard claimed == device else { throw Self.otherDevice(claimed, path: "/deviceId") }
    }

    static func otherDevice(_ claimed: String, path: String) -> SyncServerError {
        SyncServerError(.forbidden, "deviceId: \(claimed) is not the device this token belongs to", path: path)
    }

    /// The request body, refused with 413 past ``SyncServerConfiguration/maxBodyBytes``: by its
    /// Content-Length when it declares one, else while it is read.
    func body(of request: Request) async throws -> [UInt8] {
        let limit = configuration.maxBodyBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw Self.tooLarge(limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw Self.tooLarge(limit)
        }
    }

    static func tooLarge(_ limit: Int) -> SyncServerError {
        SyncServerError(.tooLarge, "request body larger than \(limit) bytes")
    }

    func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw SyncServerError(.badRequest, "malformed JSON at line \(error.line), column \(error.column): \(error.message)")
        }
    }

    /// A whole-number query parameter; `name` and what was expected appear in the refusal.
    static func integer(_ text: Substring?, name: String, default value: Int, minimum: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= minimum else {
            throw SyncServerError(.badRequest, "\(name): expected an integer >= \(minimum), got \"\(text)\"", path: "/\(name)")
        }
        return number
    }

    // MARK: Responses

    /// Runs an endpoint, turning its refusals into error bodies. Other errors (the database's) are
    /// 500s that say what failed, so a client may retry the same request.
    func respond(_ endpoint: () async throws -> (Int, JSONValue)) async -> Response {
        do {
            let (status, body) = try await endpoint()
            return Self.response(status, body)
        } catch let error as SyncServerError {
            return Self.response(error.status, error.json)
        } catch let error as SyncWireError {
            let refusal = SyncServerError(.badRequest, error.message, path: error.path)
            return Self.response(refusal.status, refusal.json)
        } catch {
            let failure = SyncServerError(.internalError, "the server failed: \(error)")
            return Self.response(failure.status, failure.json)
        }
    }

    static func response(_ status: Int, _ body: JSONValue) -> Response {
        Response(status: HTTPResponse.Status(code: status),
                 headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body))))
    }

    static func now() -> Double { Date().timeIntervalSince1970 }
}
