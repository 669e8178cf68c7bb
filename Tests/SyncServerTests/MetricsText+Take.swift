import HostTesting

extension MetricsText {
    /// Scrapes `server`, failing unless it answers 200 in the text format.
    static func take(_ server: LocalSyncServer) async throws -> MetricsText {
        let reply = try await server.get("/v1/metrics", token: nil)
        guard reply.status == 200, reply.headers[.contentType]?.hasPrefix("text/plain") == true else {
            throw TestFailure("GET /v1/metrics: \(reply)")
        }
        return try MetricsText(reply.text)
    }
}
