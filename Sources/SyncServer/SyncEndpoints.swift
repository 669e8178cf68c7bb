import Foundation
import HTTPServing
import Hummingbird
import JSON
import SyncAuth
import SyncProtocol
import SystemIO

/// The sync API's routes over a ``SyncStore``, in route collections by concern (devices, the log,
/// the snapshot, operations, the OpenAPI document) on the serving layer (HTTPServing): its
/// middleware times each request under its route's name, authenticates the routes that want a
/// caller (``SyncAuthenticator``) and makes every error the API's error body (``SyncRefusal``).
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

    /// The longest a pull may be held open (`waitMs`): a minute, below the idle timeouts of
    /// common proxies.
    static let maximumWaitMs = 60_000

    /// Who a request speaks for (``SyncAuthenticator``), before anything else it costs.
    let authentication: (registration: SyncAuthenticator, device: SyncAuthenticator)
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
    /// The body, query and path, read within the server's limits.
    let fields: SyncRequestFields

    init(store: any SyncStore, configuration: SyncServerConfiguration, held: HeldPulls, recent: RecentLog, cursors: PulledCursors,
         metrics: SyncMetrics, connections: ConnectionTable) {
        self.store = store
        self.configuration = configuration
        self.held = held
        self.recent = recent
        self.cursors = cursors
        self.metrics = metrics
        self.connections = connections
        heldByUser = HeldPullQuota(limit: configuration.maxHeldPullsPerUser)
        fields = SyncRequestFields(maxBodyBytes: configuration.maxBodyBytes, metrics: metrics)
        let (limiter, authFailures, known) = (RequestRateLimiter(configuration.rateLimit), RequestRateLimiter(configuration.authFailureLimit), known)
        let authenticator = { (admission: SyncAuthenticator.Admission) in
            SyncAuthenticator(admission: admission, store: store, verifier: configuration.tokenVerifier, limiter: limiter,
                              authFailures: authFailures, known: known, metrics: metrics, clock: configuration.clock)
        }
        authentication = (authenticator(.registration), authenticator(.device))
    }

    /// The API, one route per case; Sources/SyncServer/openapi.json describes each.
    enum Route: String, APIRoute {
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
    }

    /// The API: the serving layer's middleware first (metrics outermost, so that they count the
    /// status the error middleware renders, Hummingbird's own 404s included), then one route
    /// collection per concern, each with the authentication it wants.
    func router() -> Router<SyncRequestContext> {
        let router = Router(context: SyncRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics))
        router.add(middleware: ResponseCompressionMiddleware())
        router.add(middleware: ErrorResponseMiddleware { error, request in SyncRefusal(translating: error, request: request) })
        router.addRoutes(operationRoutes())
        router.addRoutes(OpenAPIRoute(document: OpenAPIDocument.sources[0].source).routes(at: RouterPath(Route.openAPI.path), context: SyncRequestContext.self))
        router.addRoutes(deviceRoutes())
        router.addRoutes(logRoutes())
        router.addRoutes(snapshotRoutes())
        return router
    }

    /// A route collection for `routes`, each answered by `respond`, behind `authenticator` when given.
    func routes(_ routes: [Route], authenticator: SyncAuthenticator? = nil,
                _ respond: @escaping @Sendable (Route, Request, SyncRequestContext) async throws -> Response) -> RouteCollection<SyncRequestContext> {
        let collection = RouteCollection(context: SyncRequestContext.self)
        if let authenticator { collection.add(middleware: AuthenticationMiddleware(authenticator)) }
        for route in routes {
            collection.on(RouterPath(route.path), method: route.method) { request, context in try await respond(route, request, context) }
        }
        return collection
    }

    /// The server's state for its operators: health and metrics, no token.
    func operationRoutes() -> RouteCollection<SyncRequestContext> {
        routes([.health, .metrics]) { route, _, _ in
            route == .health ? await health() : await metricsResponse()
        }
    }

    /// Registration: a token's user's on a secure server, anyone's on an insecure one.
    func deviceRoutes() -> RouteCollection<SyncRequestContext> {
        routes([.registerDevice], authenticator: authentication.registration) { _, request, context in
            try Self.answer(try await registerDevice(request, context))
        }
    }

    /// The log: push, pull and packet records, for a device of the caller's.
    func logRoutes() -> RouteCollection<SyncRequestContext> {
        routes([.push, .pull, .packet], authenticator: authentication.device) { route, request, context in
            switch route {
            case .pull: try Self.answer(try await pull(request, context))
            case .packet: try Self.answer(try await packet(request, context, packetId: context.parameters.get("packetId") ?? ""))
            default: try Self.answer(try await push(request, context))
            }
        }
    }

    /// The materialized state, in pages.
    func snapshotRoutes() -> RouteCollection<SyncRequestContext> {
        routes([.snapshot], authenticator: authentication.device) { _, request, context in
            try Self.answer(try await snapshot(request, context))
        }
    }

    // MARK: Endpoints

    /// `GET /v1/health` → 200 `{"ok": true, "store": {"kind", "latencyMs"}}`, or 503 `{"ok": false,
    /// "store": {"kind", "error"}}` when the store fails or does not answer within
    /// ``SyncServerConfiguration/healthTimeout``.
    func health() async -> Response {
        let health = await StoreHealth.check(store, timeout: healthTimeout, on: clock)
        metrics.storeChecked(latency: health.latency)
        return Response.json(HTTPResponse.Status(code: health.latency == nil ? 503 : 200), ["ok": .bool(health.latency != nil), "store": health.json])
    }

    /// `GET /v1/metrics` → this server's metrics in Prometheus' text format (``SyncMetrics``), with
    /// the store checked as `GET /v1/health` checks it, so that every scrape brings its latency up
    /// to date. It answers when the store does not (the store's gauges then keep their last
    /// figures), since that is when an operator looks.
    func metricsResponse() async -> Response {
        async let health = StoreHealth.check(store, timeout: healthTimeout, on: clock)
        async let figures = try? StoreHealth.answer(within: healthTimeout, on: clock, what: "the store") { try await store.figures() }
        metrics.storeChecked(latency: await health.latency)
        let text = metrics.exposition(store: await figures, longPolls: held.count, connections: connections.counts)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
    }

    var healthTimeout: Duration { configuration.healthTimeout }
    var clock: any HostClock { configuration.clock }

    /// `POST /v1/devices {"name"?}` → 201 `{"deviceId"}`, the device bound to the token's user; on an
    /// insecure server `{"deviceId", "token"}`, a device token for later requests.
    func registerDevice(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        let claims = context.identity?.claims
        if let claims {
            // A bound, not a count kept exact under concurrent registrations: two at once may both pass at the edge.
            let devices = try await store.deviceCount(user: claims.subject)
            guard devices < configuration.maxDevicesPerUser else {
                throw metrics.refusal(by: "devices", "user \(claims.subject) has \(devices) devices, the most allowed on this server; "
                    + "a device the user no longer uses keeps its place", retryAfter: 3600, reason: .devices)
            }
        }
        let bytes = try await fields.body(of: request)
        var name: String?
        if !bytes.isEmpty {
            name = try FieldReader(try SyncRequestFields.parse(bytes), at: "").optionalString("name")  // SyncWireError → 400 (SyncRefusal)
        }
        let token = DeviceToken.generate()
        let deviceId = try await store.registerDevice(name: name, tokenDigest: DeviceToken.digest(token), user: claims?.subject ?? "",
                                                      scopes: claims?.scopes, now: clock.wallTime)
        return (201, RegisteredDevice(deviceId: deviceId, token: claims == nil ? token : nil).json)
    }

    /// `POST /v1/push` → 200 applied, 202 held, 409 rejected, 403 an op outside the token's scopes.
    func push(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        // The caller (on an insecure server, its device token's device) was looked up and counted
        // before the body is read.
        let body = try SyncRequestFields.parse(try await fields.body(of: request))
        _ = try FieldReader(body, at: "")  // a body that is no object is refused as such, before the device is looked for
        _ = try await identify(context.identity, claimed: body["deviceId"]?.stringValue, path: "/deviceId")
        let packet = try PushPacket.decode(body)
        let now = clock.wallTime
        try checkShapes(packet, now: now)
        try await store.sweep(now: now, hold: configuration.hold)
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
    ///
    /// The time held goes to the request's waits, which its latency in the metrics leaves out (a
    /// long poll's minute is no slow answer).
    func pull(_ request: Request, _ context: SyncRequestContext) async throws -> (Int, JSONValue) {
        let device = try await identify(request, context)
        let query = request.uri.queryParameters
        let after = try SyncRequestFields.integer(query["after"], name: "after", default: 0, minimum: 0)
        let limit = try SyncRequestFields.integer(query["limit"], name: "limit", default: Self.defaultPullLimit, minimum: 1)
        let waitMs = try SyncRequestFields.integer(query["waitMs"], name: "waitMs", default: 0, minimum: 0, maximum: Self.maximumWaitMs)
        let deadline = clock.now + .milliseconds(waitMs)
        var heldFor = Duration.zero
        defer {
            if heldFor > .zero {
                metrics.pullHeld(heldFor)
                context.waits.add(heldFor)
            }
        }
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
                cursors.note(deviceId: device.deviceId, cursor: after, at: clock.wallTime)
                metrics.pulledFromMemory()
            } else {
                page = try await store.pull(for: device, after: after, limit: pageLimit, now: clock.wallTime)
                metrics.pulledFromStore()
            }
            if !page.ops.isEmpty || held.isClosed || clock.now >= deadline || connection?.isPeerGone == true { return (200, page.json) }
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
        let packetId = try SyncRequestFields.pathParameter(rawPacketId, name: "packetId")
        let now = clock.wallTime
        try await store.sweep(now: now, hold: configuration.hold)
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
        let partText = try SyncRequestFields.text(query["part"], name: "part") ?? "all"
        guard let part = SnapshotPart(query: partText) else {
            throw SyncServerError(.badRequest, "part: expected all, user or scope:NAME, got \"\(partText)\"", path: "/part")
        }
        let (afterTable, afterDataId) = (try SyncRequestFields.text(query["afterTable"], name: "afterTable"),
                                         try SyncRequestFields.text(query["afterDataId"], name: "afterDataId"))
        let after = afterTable.map { RowPosition(table: $0, dataId: afterDataId ?? "") }
        let limit = try query["limit"].map { try SyncRequestFields.integer($0, name: "limit", default: 0, minimum: 1) }
        return (200, try await store.snapshot(for: device, part: part, after: after, limit: limit.map { min($0, Self.maximumPullLimit) }).json)
    }

    // MARK: Checks

    /// The device a GET speaks for: its caller, and the `deviceId` of the query.
    func identify(_ request: Request, _ context: SyncRequestContext, required: Bool = true) async throws -> DeviceIdentity {
        try await identify(context.identity, claimed: try SyncRequestFields.text(request.uri.queryParameters["deviceId"], name: "deviceId"),
                           path: "/deviceId", required: required)
    }

    /// With a verified token, the device `claimed` if it is the token's user's; on an insecure
    /// server, the device whose device token the request carries, which must be the one claimed
    /// (`required` says whether the request must claim one: a snapshot need not there).
    func identify(_ caller: SyncCaller?, claimed: String?, path: String, required: Bool = true) async throws -> DeviceIdentity {
        let missing = SyncServerError(.badRequest, "deviceId: expected the device's id, missing", path: path)
        // Empty is not absent: `?deviceId=` names no device, so it is refused even where one may be left out.
        let empty = SyncServerError(.badRequest, "deviceId: expected the device's id, got an empty string", path: path)
        if case .user(let claims) = caller {
            guard let claimed else { throw missing }
            guard !claimed.isEmpty else { throw empty }
            // The key holds the whole grant, as values: another user or other scopes are looked up (and recorded) afresh.
            let key = KnownDevices.Key(deviceId: claimed, user: claims.subject, scopes: claims.scopes)
            let device = try await known.device(key, now: clock.now) {
                try await store.device(id: claimed, user: claims.subject, scopes: claims.scopes, now: clock.wallTime)
            }
            // The store's lookup throws rather than answer nil; a nil here would be a lookup that found nothing.
            guard let device else { throw SyncServerError(.forbidden, "deviceId: no device \(claimed) for this token's user", path: path) }
            return device
        }
        guard case .device(let device) = caller else { throw SyncServerError(.unauthorized, "Authorization: unknown token") }
        guard claimed != "" else { throw empty }
        guard let claimed else {
            if required { throw missing }
            return device
        }
        guard claimed == device.deviceId else { throw Self.otherDevice(claimed, path: path) }
        return device
    }

    /// A held pull's place in its user's bound: 429 when the user holds as many as allowed.
    func holdPull(for device: DeviceIdentity) throws -> String {
        let holder = device.user.isEmpty ? "device " + device.deviceId : device.user
        guard heldByUser.take(holder) else {
            throw metrics.refusal(by: "held_pulls", "waitMs: \(holder) holds \(heldByUser.limit) pulls open already, the most allowed; pull without waitMs, or wait for one to end",
                          retryAfter: 1, path: "/waitMs")
        }
        return holder
    }

    /// Refuses, before the store sees them, ops the store must not judge: a table declared in the
    /// server's configuration (``SyncServerConfiguration/tableScopes``) with another scope column,
    /// and a timestamp that is not a time or is more than ``SyncServerConfiguration/maxClockSkew``
    /// ahead of the server's clock (a clock that wrong is broken or hostile). A stamp before 1970
    /// is a clock's error, not an attack.
    func checkShapes(_ packet: PushPacket, now: WallTime) throws {
        let latest = (now + configuration.maxClockSkew).secondsSince1970 * 1000
        for (index, op) in packet.ops.enumerated() {
            let pointer = "/ops/\(index)"
            guard op.timestamp.isFinite, op.timestamp <= latest else {
                throw SyncServerError.invalid(pointer + "/timestamp",
                                              "expected milliseconds since 1970, no later than \(StoredText.seconds(configuration.maxClockSkew.seconds)) s past the server's clock (\(Int(now.secondsSince1970 * 1000)) ms; --max-clock-skew), got \(op.timestamp)")
            }
            // As bytes, as the stores compare table and column names.
            if let entry = configuration.tableScopes.first(where: { ByteString.same($0.key, op.table) }),
               case let declared = entry.value, !ByteString.same(declared, op.scopeColumn) {
                let expected = declared.map { "scopeColumn \"\($0)\"" } ?? "no scopeColumn"
                throw SyncServerError.invalid(pointer + "/scopeColumn", "table \(op.table) is synced with \(expected) on this server (its configuration)")
            }
        }
    }

    static func otherDevice(_ claimed: String, path: String) -> SyncServerError {
        SyncServerError(.forbidden, "deviceId: \(claimed) is not the device this token belongs to", path: path)
    }

    // MARK: Responses

    /// A route's answer, its JSON body written by the wire type's encoder.
    static func answer(_ answer: (status: Int, body: JSONValue)) throws -> Response {
        Response.json(HTTPResponse.Status(code: answer.status), answer.body)
    }
}
