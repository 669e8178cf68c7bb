import Foundation
import GRDB
import Hummingbird
import JSON
import SyncAuth
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
    /// The largest cursor or limit taken (2^53 - 1): a JavaScript client holds every integer up to
    /// it exactly, so a cursor it sends back is the one it was given.
    static let maximumInteger = 9_007_199_254_740_991

    /// The longest a pull may be held open (`waitMs`): a minute, below the idle timeouts of
    /// common proxies.
    static let maximumWaitMs = 60_000

    /// Ops stamped later than this many seconds ahead of the server's clock are refused: a stamp
    /// far in the future would win every later write to its row.
    static let maximumFutureSeconds = 86_400.0

    /// One bucket of requests per user (per device token on an insecure server), for the server's
    /// life (see ``admit(_:)``).
    let limiter: RequestRateLimiter
    /// One bucket of failed authentications per peer address: past it, that address's requests get
    /// 429 before their token is looked at.
    let authFailures: RequestRateLimiter
    /// Held pulls per user, bounded by ``SyncServerConfiguration/maxHeldPullsPerUser``.
    let heldByUser: HeldPullQuota
    /// The server's connections, where a held pull learns that its client has gone.
    let connections: ConnectionTable
    /// Pulls held open until the log grows (`waitMs`).
    let held: HeldPulls
    /// The log's newest entries, which held pulls are answered from.
    let recent: RecentLog
    /// The cursors of those pulls, until the sweeper writes them.
    let cursors: PulledCursors
    /// The devices requests spoke for in the last seconds.
    let known = KnownDevices()
    /// The server's metrics, which every answer moves.
    let metrics: SyncMetrics

    init(store: any SyncStore, configuration: SyncServerConfiguration, held: HeldPulls, recent: RecentLog, cursors: PulledCursors,
         metrics: SyncMetrics, connections: ConnectionTable) {
        self.store = store
        self.configuration = configuration
        self.held = held
        self.recent = recent
        self.cursors = cursors
        self.metrics = metrics
        self.connections = connections
        limiter = RequestRateLimiter(configuration.rateLimit)
        authFailures = RequestRateLimiter(configuration.authFailureLimit)
        heldByUser = HeldPullQuota(limit: configuration.maxHeldPullsPerUser)
    }

    /// The API, one route per case; Sources/SyncServer/openapi.json describes each.
    enum Route: String, CaseIterable {
        // The raw value names the route in the metrics' `endpoint` label.
        case health, metrics, openAPI = "openapi", registerDevice = "devices", push, pull, packet, snapshot

        var method: HTTPRequest.Method {
            switch self {
            case .registerDevice, .push: .post
            case .health, .metrics, .openAPI, .pull, .packet, .snapshot: .get
            }
        }

        /// In the router's syntax: `:name` is a parameter.
        var path: String {
            switch self {
            case .health: "/v1/health"
            case .metrics: "/v1/metrics"
            case .openAPI: "/v1/openapi.json"
            case .registerDevice: "/v1/devices"
            case .push: "/v1/push"
            case .pull: "/v1/pull"
            case .packet: "/v1/packets/:packetId"
            case .snapshot: "/v1/snapshot"
            }
        }

        /// Whether `path` (a request's) is this route's, whatever the method.
        func matches(_ path: Substring) -> Bool {
            let want = self.path.split(separator: "/")
            let have = path.split(separator: "/")
            return want.count == have.count && zip(want, have).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }
    }

    func router() -> Router<SyncRequestContext> {
        let router = Router(context: SyncRequestContext.self)
        router.add(middleware: ErrorBodyMiddleware(metrics: metrics))
        for route in Route.allCases {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                let started = ContinuousClock.now
                var held = Duration.zero
                let response = await respond(route, request, context, held: &held)
                metrics.answered(route.rawValue, status: response.status.code, took: ContinuousClock.now - started - held)
                return response
            }
        }
        return router
    }

    /// The route's answer; `held` grows by the time a pull spent waiting for a commit, which the
    /// request's latency leaves out (a long poll's minute is no slow answer).
    func respond(_ route: Route, _ request: Request, _ context: SyncRequestContext, held: inout Duration) async -> Response {
        switch route {
        case .health: await health()
        case .metrics: await metricsResponse()
        case .openAPI: Self.openAPIResponse()
        case .registerDevice: await respond { try await registerDevice(request, context) }
        case .push: await respond { try await push(request, context) }
        case .pull: await respond { try await pull(request, context, held: &held) }
        case .packet: await respond { try await packet(request, context, packetId: context.parameters.get("packetId") ?? "") }
        case .snapshot: await respond { try await snapshot(request, context) }
        }
    }

    // MARK: Endpoints

    /// `GET /v1/health` → 200 `{"ok": true, "store": {"kind", "latencyMs"}}`, or 503 `{"ok": false,
    /// "store": {"kind", "error"}}` when the store fails or does not answer within
    /// ``SyncServerConfiguration/healthTimeout``.
    func health() async -> Response {
        let health = await StoreHealth.check(store, timeout: healthTimeout)
        metrics.storeChecked(latency: health.latency)
        return Self.response(health.latency == nil ? 503 : 200, ["ok": .bool(health.latency != nil), "store": health.json])
    }

    /// `GET /v1/metrics` → this server's metrics in Prometheus' text format (``SyncMetrics``), with
    /// the store checked as `GET /v1/health` checks it, so that every scrape brings its latency up
    /// to date. It answers when the store does not (the store's gauges then keep their last
    /// figures), since that is when an operator looks.
    func metricsResponse() async -> Response {
        async let health = StoreHealth.check(store, timeout: healthTimeout)
        async let figures = try? StoreHealth.answer(within: healthTimeout, what: "the store") { try await store.figures() }
        metrics.storeChecked(latency: await health.latency)
        let text = metrics.exposition(store: await figures, longPolls: held.count, connections: connections.counts)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
    }

    var healthTimeout: Duration { .milliseconds(Int(configuration.healthTimeout * 1000)) }

    /// `POST /v1/devices {"name"?}` → 201 `{"deviceId"}`, the device bound to the token's user; on an
    /// insecure server `{"deviceId", "token"}`, a device token for later requests.
    func registerDevice(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        let claims = try await authenticate(request, context)
        if let claims {
            // A bound, not a count kept exact under concurrent registrations: two at once may both pass at the edge.
            let devices = try await store.deviceCount(user: claims.subject)
            guard devices < configuration.maxDevicesPerUser else {
                throw refused(by: "devices", "user \(claims.subject) has \(devices) devices, the most allowed on this server; "
                    + "a device the user no longer uses keeps its place", retryAfter: 3600, reason: .devices)
            }
        }
        let bytes = try await body(of: request)
        var name: String?
        if !bytes.isEmpty {
            name = try FieldReader(try parse(bytes), at: "").optionalString("name")  // SyncWireError → 400 in respond
        }
        let token = DeviceToken.generate()
        let deviceId = try await store.registerDevice(name: name, tokenDigest: DeviceToken.digest(token), user: claims?.subject ?? "",
                                                      scopes: claims?.scopes, now: Self.now())
        return (201, RegisteredDevice(deviceId: deviceId, token: claims == nil ? token : nil).json)
    }

    /// `POST /v1/push` → 200 applied, 202 held, 409 rejected, 403 an op outside the token's scopes.
    func push(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        let claims = try await authenticate(request, context)
        // On an insecure server the device token is the caller: looked up (and counted) before the
        // body is read, as a token is.
        let tokenDevice = claims == nil ? try await deviceOfToken(request, context) : nil
        let body = try parse(try await body(of: request))
        _ = try FieldReader(body, at: "")  // a body that is no object is refused as such, before the device is looked for
        _ = try await identify(request, claims: claims, tokenDevice: tokenDevice, claimed: body["deviceId"]?.stringValue, path: "/deviceId")
        let packet = try PushPacket.decode(body)
        let now = Self.now()
        try checkShapes(packet, now: now)
        try await store.sweep(now: now, holdSeconds: configuration.holdSeconds)
        let outcome: PushOutcome
        do {
            outcome = try await store.push(packet, now: now)
        } catch let refusal as SyncServerError where refusal.code == .forbidden && refusal.reason == .scope {
            metrics.pushed("refused", ops: [("refused", packet.ops.count)])
            throw refusal
        }
        let answer: PushAnswer
        switch outcome {
        case .applied(let applied, let duplicates, let cursor, let replayed):
            // A replay's ops were counted when it was first applied.
            metrics.pushed(replayed ? "replayed" : "applied", ops: replayed ? [] : [("applied", applied.count), ("duplicate", duplicates.count)])
            answer = .applied(applied: applied, duplicates: duplicates, cursor: cursor)
        case .held(let dependency):
            metrics.pushed("held", ops: [])
            answer = .held(packetId: packet.packetId, waitingFor: dependency)
        case .rejected(let reason, let opId):
            metrics.pushed("rejected", ops: [("refused", packet.ops.count)])
            answer = .rejected(PushRejection(packetId: packet.packetId, reason: reason, opId: opId))
        }
        return (answer.status, answer.json)
    }

    /// `GET /v1/pull?deviceId&after&limit&waitMs` → `{"ops", "cursor", "more", "scopes"?}`: the ops
    /// the device's scopes may see; 410 when ops after `after` were compacted. With `waitMs`, a pull
    /// that finds nothing is held (no database connection meanwhile) until a commit wakes it and a
    /// new read finds something, or `waitMs` pass, or the server shuts down: then an empty page.
    /// Such a pull reads the log's newest entries from memory (``RecentLog``) when they reach back
    /// to its cursor, and the store otherwise.
    func pull(_ request: Request, _ context: SyncRequestContext, held heldFor: inout Duration) async throws -> (Int, JSONValue) {
        let device = try await identify(request, context)
        let query = request.uri.queryParameters
        let after = try Self.integer(query["after"], name: "after", default: 0, minimum: 0)
        let limit = try Self.integer(query["limit"], name: "limit", default: Self.defaultPullLimit, minimum: 1)
        let waitMs = try Self.integer(query["waitMs"], name: "waitMs", default: 0, minimum: 0, maximum: Self.maximumWaitMs)
        let deadline = ContinuousClock.now + .milliseconds(waitMs)
        defer { if heldFor > .zero { metrics.pullHeld(heldFor) } }
        // A held pull counts against its user's bound while it lasts, and ends when its client goes.
        let holder = waitMs > 0 ? try holdPull(for: device) : nil
        defer { if let holder { heldByUser.release(holder) } }
        let connection = waitMs > 0 ? connections.life(of: context.channel) : nil
        while true {
            // Read before the store, so that a commit landing between the read and the wait still
            // wakes this pull.
            let generation = held.generation
            let page: PullPage
            let pageLimit = min(limit, Self.maximumPullLimit)
            if waitMs > 0, let recentPage = try recent.page(for: device, after: after, limit: pageLimit) {
                page = recentPage
                cursors.note(deviceId: device.deviceId, cursor: after, at: Self.now())
                metrics.pulledFromMemory()
            } else {
                page = try await store.pull(for: device, after: after, limit: pageLimit, now: Self.now())
                metrics.pulledFromStore()
            }
            if !page.ops.isEmpty || held.isClosed || ContinuousClock.now >= deadline || connection?.isPeerGone == true { return (200, page.json) }
            let waited = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await held.wait(after: generation, keys: device.logKeys, until: deadline) }
                if let connection { group.addTask { await connection.untilPeerGone() } }
                await group.next()
                group.cancelAll()
            }
            heldFor += ContinuousClock.now - waited
        }
    }

    /// `GET /v1/packets/{packetId}?deviceId` → the packet's record, 404 when unknown.
    func packet(_ request: Request, _ context: SyncRequestContext, packetId rawPacketId: String) async throws -> (Int, JSONValue) {
        let device = try await identify(request, context).deviceId
        let packetId = try Self.pathParameter(rawPacketId, name: "packetId")
        let now = Self.now()
        try await store.sweep(now: now, holdSeconds: configuration.holdSeconds)
        guard let record = try await store.packet(deviceId: device, packetId: packetId) else {
            throw SyncServerError(.notFound, "no packet \(packetId) from device \(device)")
        }
        return (200, record.record.json)
    }

    /// `GET /v1/snapshot?deviceId&part&afterTable&afterDataId&limit` → the materialized state the
    /// device may see (`part`: `all`, `user` or `scope:NAME`), in pages of `limit` rows when given.
    func snapshot(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        let device = try await identify(request, context, required: false)
        let query = request.uri.queryParameters
        let partText = try Self.text(query["part"], name: "part") ?? "all"
        guard let part = SnapshotPart(query: partText) else {
            throw SyncServerError(.badRequest, "part: expected all, user or scope:NAME, got \"\(partText)\"", path: "/part")
        }
        let (afterTable, afterDataId) = (try Self.text(query["afterTable"], name: "afterTable"), try Self.text(query["afterDataId"], name: "afterDataId"))
        let after = afterTable.map { RowPosition(table: $0, dataId: afterDataId ?? "") }
        let limit = try query["limit"].map { try Self.integer($0, name: "limit", default: 0, minimum: 1) }
        return (200, try await store.snapshot(for: device, part: part, after: after, limit: limit.map { min($0, Self.maximumPullLimit) }).json)
    }

    // MARK: Checks

    /// The device a GET speaks for: its token, and the `deviceId` of the query.
    func identify(_ request: Request, _ context: SyncRequestContext, required: Bool = true) async throws -> DeviceIdentity {
        let claims = try await authenticate(request, context)
        let tokenDevice = claims == nil ? try await deviceOfToken(request, context) : nil
        return try await identify(request, claims: claims, tokenDevice: tokenDevice,
                                  claimed: try Self.text(request.uri.queryParameters["deviceId"], name: "deviceId"), path: "/deviceId", required: required)
    }

    /// With a verified token, the device `claimed` if it is the token's user's; on an insecure
    /// server, the device whose device token the request carries (`tokenDevice`), which must be
    /// the one claimed (`required` says whether the request must claim one: a snapshot need not
    /// there).
    func identify(_ request: Request, claims: TokenClaims?, tokenDevice: DeviceIdentity?, claimed: String?, path: String,
                  required: Bool = true) async throws -> DeviceIdentity {
        let missing = SyncServerError(.badRequest, "deviceId: expected the device's id, missing", path: path)
        // Empty is not absent: `?deviceId=` names no device, so it is refused even where one may be left out.
        let empty = SyncServerError(.badRequest, "deviceId: expected the device's id, got an empty string", path: path)
        if let claims {
            guard let claimed else { throw missing }
            guard !claimed.isEmpty else { throw empty }
            let now = Self.now()
            // The key holds the whole grant, as values: another user or other scopes are looked up (and recorded) afresh.
            let key = KnownDevices.Key(deviceId: claimed, user: claims.subject, scopes: claims.scopes)
            let device = try await known.device(key, now: now) {
                try await store.device(id: claimed, user: claims.subject, scopes: claims.scopes, now: now)
            }
            // The store's lookup throws rather than answer nil; a nil here would be a lookup that found nothing.
            guard let device else { throw SyncServerError(.forbidden, "deviceId: no device \(claimed) for this token's user", path: path) }
            return device
        }
        guard let device = tokenDevice else { throw SyncServerError(.unauthorized, "Authorization: unknown token") }
        guard claimed != "" else { throw empty }
        guard let claimed else {
            if required { throw missing }
            return device
        }
        guard claimed == device.deviceId else { throw Self.otherDevice(claimed, path: path) }
        return device
    }

    /// The caller's verified token, counted against its user's rate limit; nil on an insecure
    /// server. Runs before anything else a request costs (its body, the store): an address whose
    /// authentications keep failing gets 429 before its token is even looked at.
    func authenticate(_ request: Request, _ context: SyncRequestContext) async throws -> TokenClaims? {
        guard let verifier = configuration.tokenVerifier else { return nil }
        let claims = try await failingAuthentication(from: context.address) { try verify(request, with: verifier) }
        try admit(RateKey.user(claims.subject))
        return claims
    }

    /// On an insecure server, the device whose device token the request carries (401 for an
    /// unknown one), counted against that device's rate limit.
    func deviceOfToken(_ request: Request, _ context: SyncRequestContext) async throws -> DeviceIdentity {
        let device = try await failingAuthentication(from: context.address) {
            let digest = DeviceToken.digest(try bearer(request, hint: "POST /v1/devices gives one"))
            guard let device = try await known.device(.token(digest: digest), now: Self.now(), lookUp: { try await store.device(tokenDigest: digest) }) else {
                throw SyncServerError(.unauthorized, "Authorization: unknown token")
            }
            return device
        }
        try admit(RateKey.device(device))
        return device
    }

    /// Runs an authentication: refused with 429 while `address` is over its failed
    /// authentications, which a 401 from `authentication` counts against.
    func failingAuthentication<Result>(from address: String, _ authentication: () async throws -> Result) async throws -> Result {
        try refuseOverFailedAuthentications(address)
        do {
            return try await authentication()
        } catch let error as SyncServerError where error.code == .unauthorized {
            _ = authFailures.admit(address)
            throw error
        }
    }

    func refuseOverFailedAuthentications(_ address: String) throws {
        guard let wait = authFailures.wait(address) else { return }
        throw refused(by: "auth_failures", "too many failed authentications from \(address): at most \(authFailures.limit) allowed; try again in \(wait) s",
                      retryAfter: wait)
    }

    /// Counts one request against `key`'s bucket: 429 with `Retry-After` once it is empty.
    func admit(_ key: String) throws {
        guard let wait = limiter.admit(key) else { return }
        throw refused(by: "rate", "too many requests from \(key): at most \(limiter.limit) allowed; try again in \(wait) s", retryAfter: wait)
    }

    /// A held pull's place in its user's bound: 429 when the user holds as many as allowed.
    func holdPull(for device: DeviceIdentity) throws -> String {
        let holder = device.user.isEmpty ? "device " + device.deviceId : device.user
        guard heldByUser.take(holder) else {
            throw refused(by: "held_pulls", "waitMs: \(holder) holds \(heldByUser.limit) pulls open already, the most allowed; pull without waitMs, or wait for one to end",
                          retryAfter: 1, path: "/waitMs")
        }
        return holder
    }

    /// A 429 from `limit` (a label of ``SyncMetrics/refusals``), counted there, with its `Retry-After`.
    func refused(by limit: String, _ message: String, retryAfter: Int, path: String? = nil, reason: SyncServerError.Reason? = nil) -> SyncServerError {
        metrics.refused(by: limit)
        var refusal = SyncServerError(.rateLimited, message, path: path, reason: reason)
        refusal.retryAfter = retryAfter
        return refusal
    }

    /// What a request is counted against: the token's user; on an insecure server, the device
    /// token's device (a registration there is not counted: anyone may register, by design).
    enum RateKey {
        static func user(_ subject: String) -> String { "user \(subject)" }

        static func device(_ device: DeviceIdentity) -> String { "device \(device.deviceId)" }
    }

    /// Refuses, before the store sees them, ops the store must not judge: a table declared in the
    /// server's configuration (``SyncServerConfiguration/tableScopes``) with another scope column,
    /// and a timestamp that is not a time or is more than a day ahead (`1.7e308` would win every later
    /// write to its row). A stamp before 1970 is a clock's error, not an attack: it loses every conflict.
    func checkShapes(_ packet: PushPacket, now: Double) throws {
        let latest = (now + Self.maximumFutureSeconds) * 1000
        for (index, op) in packet.ops.enumerated() {
            let pointer = "/ops/\(index)"
            guard op.timestamp.isFinite, op.timestamp <= latest else {
                throw SyncServerError.invalid(pointer + "/timestamp",
                                              "expected milliseconds since 1970, no later than a day past the server's clock (\(Int(now * 1000)) ms), got \(op.timestamp)")
            }
            // As bytes, as the stores compare table and column names.
            if let entry = configuration.tableScopes.first(where: { ByteString.same($0.key, op.table) }),
               case let declared = entry.value, !ByteString.same(declared, op.scopeColumn) {
                let expected = declared.map { "scopeColumn \"\($0)\"" } ?? "no scopeColumn"
                throw SyncServerError.invalid(pointer + "/scopeColumn", "table \(op.table) is synced with \(expected) on this server (its configuration)")
            }
        }
    }

    /// The request's token, verified: 401 with the reason (`missing`, `expired`, `signature`, ...)
    /// otherwise.
    func verify(_ request: Request, with verifier: TokenVerifier) throws -> TokenClaims {
        let token = try bearer(request, hint: "a JSON Web Token from the app's auth server")
        do {
            return try verifier.verify(token, now: Int64(Self.now()))
        } catch {
            throw SyncServerError(.unauthorized, "Authorization: \(error.message)", reason: SyncServerError.Reason(error.reason))
        }
    }

    func bearer(_ request: Request, hint: String) throws -> String {
        guard let header = request.headers[.authorization] else {
            throw SyncServerError(.unauthorized, "missing Authorization header, expected \"Bearer TOKEN\" (\(hint))", reason: .missing)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw SyncServerError(.unauthorized, "Authorization: expected \"Bearer TOKEN\"", reason: .malformed)
        }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    static func otherDevice(_ claimed: String, path: String) -> SyncServerError {
        SyncServerError(.forbidden, "deviceId: \(claimed) is not the device this token belongs to", path: path)
    }

    /// The request body, refused with 413 past ``SyncServerConfiguration/maxBodyBytes``: by its
    /// Content-Length when it declares one, else while it is read.
    func body(of request: Request) async throws -> [UInt8] {
        let limit = configuration.maxBodyBytes
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

    func parse(_ bytes: [UInt8]) throws -> JSONValue {
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

    // MARK: Responses

    /// Runs an endpoint, turning its refusals into error bodies. Other errors (the database's) are
    /// 500s that say what failed, so a client may retry the same request.
    func respond(_ endpoint: () async throws -> (Int, JSONValue)) async -> Response {
        do {
            let (status, body) = try await endpoint()
            return Self.response(status, body)
        } catch let error as SyncServerError {
            return Self.response(error)
        } catch let error as SyncWireError {
            return Self.response(SyncServerError(error.tooLarge ? .tooLarge : .badRequest, error.message, path: error.path))
        } catch {
            let failure = SyncServerError(.internalError, "the server failed: \(PostgresSyncStore.describe(error))", reason: Self.storageReason(error))
            return Self.response(failure.status, failure.json)
        }
    }

    /// A failure of the disk under the database, by name (the request may be sent again once the
    /// operator has made room): `disk_full`, `io` or `read_only`; nil for any other error.
    static func storageReason(_ error: any Error) -> SyncServerError.Reason? {
        guard let error = error as? DatabaseError else { return PostgresSyncStore.storageReason(error) }
        switch error.resultCode {
        case .SQLITE_FULL: return .diskFull
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: return .io
        case .SQLITE_READONLY: return .readOnly
        default: return nil
        }
    }

    static func response(_ status: Int, _ body: JSONValue, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: HTTPResponse.Status(code: status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body))))
    }

    /// A refusal, with the header its status calls for (`Retry-After` for 429).
    static func response(_ error: SyncServerError, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        if let wait = error.retryAfter { headers[.retryAfter] = String(wait) }
        return response(error.status, error.json, headers: headers)
    }

    /// `GET /v1/openapi.json`: Sources/SyncServer/openapi.json, embedded at build time (the
    /// EmbedSources plugin; its one entry).
    static func openAPIResponse() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: openAPIBody))
    }

    static let openAPIBody = ByteBuffer(string: OpenAPIDocument.sources[0].source)

    static func now() -> Double { Date().timeIntervalSince1970 }
}
