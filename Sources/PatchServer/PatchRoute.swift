import HTTPServing
import Hummingbird

/// The patch API, one route per case; Sources/PatchServer/openapi.json describes each. The raw
/// value names the route in the metrics' `endpoint` label.
enum PatchRoute: String, APIRoute {
    case page, login, health, metrics, openAPI = "openapi", app, publish, change, status, audit, check, reports

    var method: HTTPRequest.Method {
        switch self {
        case .page, .health, .metrics, .openAPI, .status, .audit: .get
        case .app: .put
        case .login, .publish, .change, .check, .reports: .post
        }
    }

    var path: String {
        switch self {
        case .page: "/"
        case .login: "/login"
        case .health: "/v1/health"
        case .metrics: "/v1/metrics"
        case .openAPI: "/v1/openapi.json"
        case .app: "/v1/apps/:app"
        case .publish: "/v1/apps/:app/patches"
        case .change: "/v1/apps/:app/patches/:version/:action"
        case .status: "/v1/apps/:app/status"
        case .audit: "/v1/apps/:app/audit"
        case .check: "/v1/apps/:app/check"
        case .reports: "/v1/apps/:app/reports"
        }
    }
}

/// A request to the patch server: Hummingbird's core context, the peer's address, and the time it
/// waited on purpose (none yet: no route holds a request), which ``RequestMetricsMiddleware`` wants.
struct PatchRequestContext: WaitingRequestContext {
    var coreContext: CoreRequestContextStorage
    let waits = RequestWaits()
    /// The peer's IP address ("" when the socket has none): the key of the limits on callers
    /// without a token and on failed authentications.
    let address: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress ?? ""
    }
}
