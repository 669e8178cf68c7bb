import Hummingbird

/// Where a server records its answers: one call per request, with the route's path as the router
/// matched it (`/v1/packets/{packetId}`, never the URL with its ids; nil, or Hummingbird's
/// `NotFound`, for a path no route has), the status sent, and the time taken less the time the
/// request waited on purpose.
public protocol RequestMetrics: Sendable {
    func answered(route: String?, status: Int, took: Duration)
}

/// Times every request and records it, labelled by its route's path (Hummingbird's
/// `MetricsMiddleware` does the same through swift-metrics' process-wide front end; this one
/// records into the server's own registry, so that several servers in one process keep their
/// figures apart). First on the router, so that it sees the status ``ErrorResponseMiddleware``
/// renders; recorded before the answer is sent, so that a scrape right after it counts it.
public struct RequestMetricsMiddleware<Context: WaitingRequestContext>: RouterMiddleware {
    let metrics: any RequestMetrics

    public init(_ metrics: any RequestMetrics) {
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(context, status: response.status.code, started: started)
            return response
        } catch {
            // Only when nothing below rendered it: Hummingbird answers the error itself.
            record(context, status: (error as? any HTTPResponseError)?.status.code ?? 500, started: started)
            throw error
        }
    }

    func record(_ context: Context, status: Int, started: ContinuousClock.Instant) {
        metrics.answered(route: context.endpointPath, status: status, took: ContinuousClock.now - started - context.waits.total)
    }
}
