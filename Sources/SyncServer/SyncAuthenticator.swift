import HTTPServing
import Hummingbird
import SyncAuth
import SyncProtocol
import SystemIO

/// The sync server's authentication, run by the serving layer's ``AuthenticationMiddleware``
/// before a route reads its body or asks the store: a verified token, counted against its user's
/// rate limit; on an insecure server (no ``SyncServerConfiguration/tokenVerifier``), the device
/// whose device token the request carries, counted against that device's, or, for a
/// registration, anyone. An address whose authentications keep failing gets 429 before its
/// token is even looked at.
struct SyncAuthenticator: RequestAuthenticator {
    typealias Context = SyncRequestContext

    /// What the routes it guards take on an insecure server.
    enum Admission {
        /// A registration: anyone (a secure server still wants a token).
        case registration
        /// Everything else: the caller's device token.
        case device
    }

    let admission: Admission
    let store: any SyncStore
    let verifier: TokenVerifier?
    /// One bucket of requests per user (per device token on an insecure server), for the server's
    /// life (see ``admit(_:)``).
    let limiter: RequestRateLimiter
    /// One bucket of failed authentications per peer address: past it, that address's requests get
    /// 429 before their token is looked at.
    let authFailures: RequestRateLimiter
    /// The devices requests spoke for in the last seconds.
    let known: KnownDevices
    let metrics: SyncMetrics
    /// Rates run on its monotonic time; tokens expire on its wall time.
    let clock: any HostClock

    func authenticate(_ request: Request, context: SyncRequestContext) async throws -> SyncCaller {
        if let verifier {
            let claims = try await failingAuthentication(from: context.address) { try verify(request, with: verifier) }
            try admit(RateKey.user(claims.subject))
            return .user(claims)
        }
        guard admission == .device else { return .anyone }
        let device = try await failingAuthentication(from: context.address) {
            let digest = DeviceToken.digest(try bearer(request, hint: "POST /v1/devices gives one"))
            guard let device = try await known.device(.token(digest: digest), now: clock.now,
                                                      lookUp: { try await store.device(tokenDigest: digest) }) else {
                throw SyncServerError(.unauthorized, "Authorization: unknown token")
            }
            return device
        }
        try admit(RateKey.device(device))
        return .device(device)
    }

    /// Runs an authentication: refused with 429 while `address` is over its failed
    /// authentications, which a 401 from `authentication` counts against.
    func failingAuthentication<Result>(from address: String, _ authentication: () async throws -> Result) async throws -> Result {
        if let wait = authFailures.wait(address, now: clock.now) {
            throw metrics.refusal(by: "auth_failures", "too many failed authentications from \(address): at most \(authFailures.limit) allowed; try again in \(wait) s",
                                  retryAfter: wait)
        }
        do {
            return try await authentication()
        } catch let error as SyncServerError where error.code == .unauthorized {
            _ = authFailures.admit(address, now: clock.now)
            throw error
        }
    }

    /// Counts one request against `key`'s bucket: 429 with `Retry-After` once it is empty.
    func admit(_ key: String) throws {
        guard let wait = limiter.admit(key, now: clock.now) else { return }
        throw metrics.refusal(by: "rate", "too many requests from \(key): at most \(limiter.limit) allowed; try again in \(wait) s", retryAfter: wait)
    }

    /// What a request is counted against: the token's user; on an insecure server, the device
    /// token's device (a registration there is not counted: anyone may register, by design).
    enum RateKey {
        static func user(_ subject: String) -> String { "user \(subject)" }

        static func device(_ device: DeviceIdentity) -> String { "device \(device.deviceId)" }
    }

    /// The request's token, verified: 401 with the reason (`missing`, `expired`, `signature`, ...)
    /// otherwise.
    func verify(_ request: Request, with verifier: TokenVerifier) throws -> TokenClaims {
        let token = try bearer(request, hint: "a JSON Web Token from the app's auth server")
        do {
            return try verifier.verify(token, now: Int64(clock.wallTime.secondsSince1970))
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
}
