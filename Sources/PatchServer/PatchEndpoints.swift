import HTTPServing
import Hummingbird
import JSON
import PatchProtocol
import PostgresStores
import SyncAuth
import Synchronization
import SystemIO

/// The patch API's routes over a ``PatchStore``: the publishers' (app keys, publish, rollout,
/// halt, resume, revoke, status, audit; a token with `publish:APP`) and the devices' (check, with
/// an optional token; reports, with `device:APP`). Nothing is written until every check passes.
struct PatchEndpoints: Sendable {
    let store: any PatchStore
    let configuration: PatchServerConfiguration

    typealias Context = PatchRequestContext

    /// Offers already made, by patch and the module hashes a device sent: a delta costs a zstd
    /// compression at level 19 of the whole module, and the devices of a fleet run the same few
    /// sources, so each is made once. Patches and sources never change once published.
    let offers = OfferCache()
    let metrics: PatchMetrics
    /// `--rate-limit`, per token subject (or per address for a caller without one).
    let limiter: RequestRateLimiter
    /// `--auth-failure-limit`, per address.
    let authFailures: RequestRateLimiter

    init(store: any PatchStore, configuration: PatchServerConfiguration, metrics: PatchMetrics) {
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        limiter = RequestRateLimiter(configuration.rateLimit)
        authFailures = RequestRateLimiter(configuration.authFailureLimit)
    }

    /// The API: metrics outermost (so that they count the status the error middleware renders,
    /// Hummingbird's own 404s included), then the errors in the API's shape, then each route.
    func router() -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: RequestMetricsMiddleware(metrics))
        router.add(middleware: ResponseCompressionMiddleware())
        router.add(middleware: ErrorResponseMiddleware { error, request in PatchServerError.translating(error, request: request) })
        router.addRoutes(OpenAPIRoute(document: OpenAPIDocument.sources[0].source).routes(at: RouterPath(PatchRoute.openAPI.path), context: Context.self))
        for route in PatchRoute.allCases where route != .openAPI {
            router.on(RouterPath(route.path), method: route.method) { request, context in try await respond(route, request, context) }
        }
        return router
    }

    func respond(_ route: PatchRoute, _ request: Request, _ context: Context) async throws -> Response {
        switch route {
        case .page: try await page(request, context)
        case .login: try await login(request, context)
        case .health: await health()
        case .metrics:
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition(offersCached: offers.count))))
        case .openAPI: throw PatchServerError.notFound("GET /v1/openapi.json: served by its own route")
        case .app: try await answer(putApp(request, context))
        case .publish: try await answer(publish(request, context))
        case .change: try await answer(change(request, context))
        case .status: try await answer(status(request, context))
        case .audit: try await answer(audit(request, context))
        case .check: try await answer(check(request, context))
        case .reports: try await answer(report(request, context))
        }
    }

    func answer(_ answer: (Int, JSONValue)) -> Response { Response.json(HTTPResponse.Status(code: answer.0), answer.1) }

    /// `GET /v1/health` → 200 `{"ok": true, "store": {"kind", "latencyMs"}}`; 503 with the store's
    /// error when it fails or does not answer within the health timeout, so that a load balancer
    /// stops sending devices to an instance whose database is gone.
    func health() async -> Response {
        let health = await StoreHealth.check(kind: store.kind, timeout: configuration.healthTimeout, on: SystemClock(),
                                             describe: PostgresPool.describe) { try await store.ping() }
        return answer((health.isUp ? 200 : 503, ["ok": .bool(health.isUp), "store": health.json]))
    }

    var now: String { PatchClock.format(PatchClock.now()) }

    // MARK: Publishers

    /// `PUT /v1/apps/{app}` `{"keys": [BASE64...]}` → the app and its keys.
    func putApp(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, subject) = try caller(request, context, scope: "publish")
        let body = try await json(request)
        guard let items = body["keys"]?.arrayValue, !items.isEmpty else {
            throw PatchServerError.badRequest("keys: expected a non-empty array of base64 Ed25519 public keys")
        }
        var keys: [String] = []
        for (index, item) in items.enumerated() {
            guard let key = item.stringValue, Base64.decode(key)?.count == 32 else {
                throw PatchServerError.badRequest("keys[\(index)]: expected a 32-byte Ed25519 public key in base64, as `hybrid patch keygen` prints")
            }
            keys.append(key)
        }
        try await store.putApp(app, keys: keys, subject: subject, at: now)
        return (200, ["app": .string(app), "keys": .array(keys.map(JSONValue.string))])
    }

    /// `POST /v1/apps/{app}/patches` `{"patch", "channel", "rollout"?, "haltAbove"?, "minDevices"?}`.
    func publish(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, subject) = try caller(request, context, scope: "publish")
        let body = try await json(request)
        guard let file = body["patch"], file.objectValue != nil else {
            throw PatchServerError.badRequest("patch: expected the signed patch file's JSON object (`hybrid patch sign` writes it)")
        }
        guard let channel = body["channel"]?.stringValue, !channel.isEmpty else {
            throw PatchServerError.badRequest("channel: expected a channel name such as \"production\"")
        }
        let rollout = try percent(body["rollout"], name: "rollout", default: 100, minimum: 0.01)
        let haltAbove = try percent(body["haltAbove"], name: "haltAbove", default: 2, minimum: 0)
        var minDevices = 20
        if let value = body["minDevices"], !value.isNull {
            guard let number = value.intValue, number >= 1 else { throw PatchServerError.badRequest("minDevices: expected a positive integer") }
            minDevices = number
        }
        let patch: SignedPatch
        do {
            patch = try SignedPatch(json: file, file: "patch")
        } catch {
            throw PatchServerError(error)
        }
        let keys = try await appKeys(app)
        guard patch.manifest.app == app else {
            throw PatchServerError(422, "wrong_app", "patch.app: the patch is for \"\(patch.manifest.app)\", not \"\(app)\"")
        }
        do {
            try PatchVerifier.verifySignature(patch, keys: keys, keysName: "the app's \(keys.count) registered key(s) (PUT /v1/apps/\(app))")
        } catch {
            throw PatchServerError(error)
        }
        let release = PatchRelease(app: app, patchVersion: patch.manifest.patchVersion, baseVersion: patch.manifest.baseVersion,
                                   channel: channel, rollout: rollout, haltAbove: haltAbove, minDevices: minDevices, state: .active)
        try await store.publish(release, file: JSONWriter.write(file), sources: patch.sources, subject: subject, at: now)
        metrics.changed("publish", byServer: false)
        return (201, releaseJSON(release, funnel: nil))
    }

    /// `POST /v1/apps/{app}/patches/{version}/rollout|halt|resume|revoke`.
    func change(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, subject) = try caller(request, context, scope: "publish")
        let versionText = context.parameters.get("version") ?? ""
        guard let version = Int(versionText), version > 0 else {
            throw PatchServerError.badRequest("version: expected a positive integer, got \"\(versionText)\"")
        }
        guard var release = try await store.release(app: app, patchVersion: version) else {
            throw PatchServerError.notFound("patch \(version) of \(app): not published")
        }
        let action = context.parameters.get("action") ?? ""
        let body = try await json(request, optional: true)
        if action == "revoke" {
            guard let value = body["revocation"] else {
                throw PatchServerError.badRequest("revocation: expected the signed revocation (`hybrid patch revoke` makes it)")
            }
            let revocation: PatchRevocation
            do {
                revocation = try PatchRevocation(json: value)
                try revocation.verify(app: app, keys: try await appKeys(app))
            } catch let error as PatchError {
                throw PatchServerError(error)
            }
            guard revocation.patchVersion == version else {
                throw PatchServerError.badRequest("revocation.patchVersion: \(revocation.patchVersion), but the path names patch \(version)")
            }
            try await store.addRevocation(app: app, patchVersion: version, revocation: JSONWriter.write(revocation.jsonValue),
                                          subject: subject, reason: revocation.reason, at: now)
            release.state = .revoked
            metrics.changed(action, byServer: false)
            return (200, releaseJSON(release, funnel: nil))
        }
        var percent: Double?
        var reason = "halted by \(subject)"
        switch action {
        case "rollout":
            percent = try self.percent(body["percent"], name: "percent", default: nil, minimum: 0.01)
        case "halt":
            if let value = body["reason"], !value.isNull {
                guard let text = value.stringValue, !text.isEmpty else { throw PatchServerError.badRequest("reason: expected a non-empty string") }
                reason = text
            }
        case "resume":
            break
        default:
            throw PatchServerError.notFound("\(action): expected rollout, halt, resume or revoke")
        }
        // The change is made to the state it was decided on: when another change to the patch
        // came first (through any instance of the server), it is decided again on what is stored.
        while true {
            let expected = release.state
            let details: String
            switch action {
            case "rollout":
                release.rollout = percent ?? release.rollout
                details = "rollout \(PatchSchema.percent(release.rollout))%"
            case "halt":
                guard release.state != .revoked else { throw PatchServerError(409, "revoked", "patch \(version) is revoked") }
                release.state = .halted
                release.haltReason = reason
                release.haltedBy = subject
                details = reason
            default:
                guard release.state != .revoked else { throw PatchServerError(409, "revoked", "patch \(version) is revoked; a revoked patch never resumes") }
                release.state = .active
                release.haltReason = nil
                release.haltedBy = nil
                details = "offered again at \(PatchSchema.percent(release.rollout))%"
            }
            if try await store.update(release, expecting: expected, action: action, details: details, subject: subject, at: now) { break }
            guard let stored = try await store.release(app: app, patchVersion: version) else {
                throw PatchServerError.notFound("patch \(version) of \(app): not published")
            }
            release = stored
        }
        metrics.changed(action, byServer: false)
        return (200, releaseJSON(release, funnel: nil))
    }

    /// `GET /v1/apps/{app}/status` → every patch with its rollout, state and funnel.
    func status(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, _) = try caller(request, context, scope: "publish")
        var patches: [JSONValue] = []
        for release in try await store.releases(app: app) {
            patches.append(releaseJSON(release, funnel: try await store.funnel(app: app, patchVersion: release.patchVersion)))
        }
        return (200, ["app": .string(app), "patches": .array(patches)])
    }

    /// `GET /v1/apps/{app}/audit` → every change, oldest first.
    func audit(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, _) = try caller(request, context, scope: "publish")
        return (200, ["entries": .array(try await store.audit(app: app).map(\.json))])
    }

    // MARK: The rollout page

    /// The cookie `/login` keeps a publisher's token in, for the page.
    static let tokenCookie = "hybrid_patch_token"

    /// `GET /`: the rollout page of every app the token may publish (every app on an insecure
    /// server), or, without a token that verifies, the sign-in form with 401.
    func page(_ request: Request, _ context: Context) async throws -> Response {
        var subject = "anonymous"
        var apps = try await store.apps()
        if configuration.tokenVerifier != nil {
            guard let token = bearer(request) ?? cookie(request, Self.tokenCookie) else { return html(401, RolloutPage.signIn(nil)) }
            let claims: TokenClaims
            do {
                claims = try verify(token, context)
            } catch let error as PatchServerError {
                return html(error.code, RolloutPage.signIn("The token was refused: \(error.message). Sign in again."), retryAfter: error.retryAfter)
            }
            let granted = Set(claims.scopes.filter { $0.hasPrefix("publish:") }.map { String($0.dropFirst("publish:".count)) })
            apps = apps.filter(granted.contains)
            subject = claims.subject
        }
        var shown: [RolloutPage.App] = []
        for app in apps {
            var patches: [RolloutPage.Patch] = []
            for release in try await store.releases(app: app) {
                patches.append(RolloutPage.Patch(release: release, funnel: try await store.funnel(app: app, patchVersion: release.patchVersion),
                                                 timeline: try await store.timeline(app: app, patchVersion: release.patchVersion)))
            }
            shown.append(RolloutPage.App(name: app, patches: patches))
        }
        return html(200, RolloutPage.render(shown, subject: subject, now: PatchClock.now()))
    }

    /// `POST /login` `token=JWT` (the sign-in form): keeps a token that verifies and grants
    /// `publish:APP` in an HttpOnly, SameSite=Strict cookie until it expires, and sends the
    /// browser to `/` (303); 401 with the form again otherwise, saying why.
    func login(_ request: Request, _ context: Context) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        let fields = FormFields(String(decoding: buffer.readableBytesView, as: UTF8.self))
        guard let token = fields["token"], !token.isEmpty else {
            return html(400, RolloutPage.signIn("token: expected the form's token field, a publisher's token (scope publish:APP)"))
        }
        guard configuration.tokenVerifier != nil else { return redirect(to: "/", cookie: nil) }
        let claims: TokenClaims
        do {
            claims = try verify(token, context)
        } catch let error as PatchServerError {
            return html(error.code, RolloutPage.signIn("The token was refused: \(error.message)."), retryAfter: error.retryAfter)
        }
        guard claims.scopes.contains(where: { $0.hasPrefix("publish:") }) else {
            return html(403, RolloutPage.signIn("The token's scopes \(claims.scopes) grant publish:APP for no app."))
        }
        let seconds = max(Int(claims.expiresAt - Int64(PatchClock.now())), 0)
        return redirect(to: "/", cookie: "\(Self.tokenCookie)=\(token); Path=/; Max-Age=\(seconds); HttpOnly; SameSite=Strict")
    }

    func html(_ status: Int, _ page: String, retryAfter: Int? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    func redirect(to location: String, cookie: String?) -> Response {
        var headers: HTTPFields = [.location: location, .contentType: "text/html; charset=utf-8"]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "<a href=\"/\">Patch rollouts</a>\n")))
    }

    /// The token of `Authorization: Bearer TOKEN`, if the request has one.
    func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
    }

    /// The value of the cookie `name`, if the request sends it.
    func cookie(_ request: Request, _ name: String) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].drop(while: { $0 == " " }) == name { return String(parts[1]) }
            }
        }
        return nil
    }

    // MARK: Devices

    /// `POST /v1/apps/{app}/check` → `{"patch": OFFER|null, "revocations": [...], "checkAfter"?}`.
    func check(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let app = try appName(context)
        if request.headers[.authorization] != nil || configuration.tokenVerifier == nil {
            _ = try caller(request, context, scope: "device")
        } else {
            try admit("address:" + context.address)
        }
        let check: PatchCheck
        do {
            check = try PatchCheck(json: try await json(request))
        } catch let error as PatchError {
            throw PatchServerError(error)
        }
        var offer: JSONValue = .null
        let skipped = Set(check.rolledBack)
        for release in try await store.candidates(app: app, channel: check.channel, baseVersion: check.baseVersion,
                                                          above: max(check.highestVersion, check.patchVersion ?? 0))
        where !skipped.contains(release.patchVersion)
            && PatchCohort.contains(app: app, patchVersion: release.patchVersion, deviceId: check.deviceId, percent: release.rollout) {
            let key = "\(app)\n\(release.patchVersion)\n" + check.modules.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
            let (store, modules, metrics) = (store, check.modules, metrics)
            guard let made = try await offers.offer(key, make: {
                metrics.offerMade()
                guard let file = try await store.file(app: app, patchVersion: release.patchVersion) else { return nil }
                let patch = try JSONParser.parse(file)
                var known: [String: String] = [:]
                for (name, sha) in modules {
                    if let source = try await store.source(app: app, module: name, sha256: sha) { known[name + "\n" + sha] = source }
                }
                return PatchOffer.make(patch: patch, deviceModules: modules) { name, sha in known[name + "\n" + sha] }
            }) else { continue }
            offer = made
            _ = try await store.vote(app: app, patchVersion: release.patchVersion, deviceId: check.deviceId, event: "offered", reason: nil,
                                 at: Int(PatchClock.now()))
            break
        }
        metrics.checked(offered: offer != .null)
        let revocations = try await store.revocations(app: app).compactMap { try? JSONParser.parse($0) }
        var answer: JSONObject = ["patch": offer, "revocations": .array(revocations)]
        if let after = configuration.checkAfter { answer.appendUnique("checkAfter", .number(Double(after))) }
        return (200, .object(answer))
    }

    /// `POST /v1/apps/{app}/reports` `{"patchVersion", "event", "reason"?}`: one vote per device,
    /// patch and event; a rollback may halt the patch (``RollbackBound``).
    func report(_ request: Request, _ context: Context) async throws -> (Int, JSONValue) {
        let (app, subject) = try caller(request, context, scope: "device")
        let body = try await json(request)
        let report: PatchReport
        do {
            report = try PatchReport(json: body)
        } catch {
            throw PatchServerError(error)
        }
        var deviceId = subject
        if configuration.tokenVerifier == nil {
            guard let claimed = body["deviceId"]?.stringValue, !claimed.isEmpty else {
                throw PatchServerError.badRequest("deviceId: expected the device's id (a server without tokens takes it from the report)")
            }
            deviceId = claimed
        }
        guard var release = try await store.release(app: app, patchVersion: report.patchVersion) else {
            throw PatchServerError.notFound("patchVersion: patch \(report.patchVersion) of \(app) is not published")
        }
        let counted = try await store.vote(app: app, patchVersion: report.patchVersion, deviceId: deviceId, event: report.event.rawValue,
                                           reason: report.reason, at: Int(PatchClock.now()))
        if counted, report.event == .rolledBack, release.state == .active {
            let (n, k) = try await store.rollbackFigures(app: app, patchVersion: report.patchVersion)
            let bound = RollbackBound.lower(rolledBack: k, applied: n)
            if n >= release.minDevices, bound > release.haltAbove / 100 {
                release.state = .halted
                release.haltedBy = "server"
                release.haltReason = "\(k) of \(n) devices that applied it rolled it back; the rollback rate's lower bound (Wilson, 95%) "
                    + "\((bound * 10_000).rounded() / 100)% exceeds \(PatchSchema.percent(release.haltAbove))%"
                // Decided once: of the reports that pass the bound at once, on any instance, only the
                // one whose halt finds the patch still active halts it and writes the audit entry.
                if try await store.update(release, expecting: .active, action: "halt", details: release.haltReason ?? "", subject: "server", at: now) {
                    metrics.changed("halt", byServer: true)
                }
            }
        }
        metrics.reported(event: report.event.rawValue, counted: counted)
        return (200, ["counted": .bool(counted)])
    }

    // MARK: Reading requests

    func appName(_ context: Context) throws -> String {
        guard let app = context.parameters.get("app"), !app.isEmpty, app.utf8.count <= 200, !app.utf8.contains(0) else {
            throw PatchServerError.badRequest("app: expected the app's name (app.json name)")
        }
        return app
    }

    /// The app of the path and the token's subject, refused with 401 without a valid token and 403
    /// when it lacks `SCOPE:APP`. On an insecure server, "anonymous".
    func caller(_ request: Request, _ context: Context, scope: String) throws -> (app: String, subject: String) {
        let app = try appName(context)
        guard configuration.tokenVerifier != nil else {
            try admit("address:" + context.address)
            return (app, "anonymous")
        }
        guard let token = bearer(request) else {
            try refuseWhileFailing(context)
            throw failed(context, request.headers[.authorization] == nil
                ? "Authorization: missing; expected \"Bearer TOKEN\" with scope \(scope):\(app)" : "Authorization: expected \"Bearer TOKEN\"")
        }
        let claims = try verify(token, context)
        guard claims.scopes.contains("\(scope):\(app)") else {
            throw PatchServerError(403, "forbidden", "Authorization: the token's scopes \(claims.scopes) lack \(scope):\(app)")
        }
        try admit("subject:" + claims.subject)
        return (app, claims.subject)
    }

    /// The claims of `token`, or 401 (counted against the peer's address); 429 before the token
    /// is looked at while that address is past `--auth-failure-limit`.
    func verify(_ token: String, _ context: Context) throws -> TokenClaims {
        guard let verifier = configuration.tokenVerifier else { throw PatchServerError(500, "internal", "no token verifier") }
        try refuseWhileFailing(context)
        do {
            return try verifier.verify(token, now: Int64(PatchClock.now()))
        } catch {
            throw failed(context, "Authorization: \(error.message)")
        }
    }

    func refuseWhileFailing(_ context: Context) throws {
        if let wait = authFailures.wait(context.address, now: .now) {
            metrics.refused(by: "auth_failures")
            throw PatchServerError.limited("too many failed authentications from \(context.address); try again in \(wait) s", retryAfter: wait)
        }
    }

    /// A 401 with `message`, counted against the peer's address.
    func failed(_ context: Context, _ message: String) -> PatchServerError {
        _ = authFailures.admit(context.address, now: .now)
        return PatchServerError(401, "unauthorized", message)
    }

    /// Takes a request from `key`'s bucket (`--rate-limit`), or refuses it with 429.
    func admit(_ key: String) throws {
        if let wait = limiter.admit(key, now: .now) {
            metrics.refused(by: "rate")
            throw PatchServerError.limited("more than \(configuration.rateLimit) requests; try again in \(wait) s", retryAfter: wait)
        }
    }

    func appKeys(_ app: String) async throws -> [String] {
        guard let keys = try await store.keys(app: app) else {
            throw PatchServerError(422, "unknown_app", "app: \(app) has no keys on this server; add them with `hybrid patch-server app add \(app) --key KEY`")
        }
        return keys
    }

    func json(_ request: Request, optional: Bool = false) async throws -> JSONValue {
        let buffer = try await request.body.collect(upTo: configuration.maxBodyBytes)
        let bytes = Array(buffer.readableBytesView)
        if bytes.isEmpty, optional { return [:] }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw PatchServerError.badRequest("body: malformed JSON: \(error)")
        }
        guard value.objectValue != nil else { throw PatchServerError.badRequest("body: expected a JSON object") }
        return value
    }

    func percent(_ value: JSONValue?, name: String, default fallback: Double?, minimum: Double) throws -> Double {
        guard let value, !value.isNull else {
            guard let fallback else { throw PatchServerError.badRequest("\(name): expected a percentage from \(minimum) to 100") }
            return fallback
        }
        guard let number = value.numberValue, number >= minimum, number <= 100, abs((number * 100).rounded() - number * 100) < 1e-6 else {
            throw PatchServerError.badRequest("\(name): expected a percentage from \(PatchSchema.percent(minimum)) to 100 in steps of 0.01")
        }
        return number
    }

    func releaseJSON(_ release: PatchRelease, funnel: PatchFunnel?) -> JSONValue {
        var object: JSONObject = ["patchVersion": .number(Double(release.patchVersion)), "baseVersion": .string(release.baseVersion),
                                  "channel": .string(release.channel), "rollout": .number(release.rollout),
                                  "haltAbove": .number(release.haltAbove), "minDevices": .number(Double(release.minDevices)),
                                  "state": .string(release.state.rawValue)]
        if let reason = release.haltReason { object.appendUnique("haltReason", .string(reason)) }
        if let by = release.haltedBy { object.appendUnique("haltedBy", .string(by)) }
        if let funnel { object.appendUnique("funnel", funnel.json) }
        return .object(object)
    }
}

/// The offers ``PatchEndpoints`` made, at most ``limit`` of them (emptied when full), each made
/// once: checks that ask for one while it is being made wait for it, since a new patch brings a
/// fleet's checks at once and each delta is a zstd compression at level 19 of a whole module. A
/// make that fails is forgotten, so that the next check tries again.
final class OfferCache: Sendable {
    static let limit = 1_000
    private let offers = Mutex<[String: Task<JSONValue?, any Error>]>([:])

    func offer(_ key: String, make: @escaping @Sendable () async throws -> JSONValue?) async throws -> JSONValue? {
        let task = offers.withLock { offers in
            if let task = offers[key] { return task }
            if offers.count >= Self.limit { offers.removeAll() }
            let task = Task { try await make() }
            offers[key] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            offers.withLock { offers in
                if offers[key] == task { offers[key] = nil }
            }
            throw error
        }
    }

    var count: Int { offers.withLock { $0.count } }
}
