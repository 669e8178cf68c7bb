import HTTPServing

extension SyncMetrics: RequestMetrics {
    /// The serving layer's record of an answer, under the route's name in the `endpoint` label
    /// (`packet` for `/v1/packets/{packetId}`), or `unknown` for a path the server has not.
    func answered(route: String?, status: Int, took: Duration) {
        answered(SyncEndpoints.Route.route(routerPath: route)?.rawValue ?? "unknown", status: status, took: took)
    }
}
