/// One scrape of `GET /v1/metrics`, parsed from Prometheus' text format: each sample by its name
/// and labels, as a monitoring system would read it.
///
/// ```swift
/// let scrape = try await MetricsScrape.take(server)
/// scrape["hybrid_sync_requests_total", ["endpoint": "push", "status": "200"]]   // 3
/// ```
struct MetricsScrape: Sendable {
    struct Sample: Sendable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let samples: [Sample]
    let text: String

    /// Scrapes `server`, failing unless it answers 200 in the text format.
    static func take(_ server: any SyncServerEndpoint) async throws -> MetricsScrape {
        let reply = try await server.get("/v1/metrics", token: nil)
        guard reply.status == 200, reply.headers[.contentType]?.hasPrefix("text/plain") == true else {
            throw TestFailure("GET /v1/metrics: \(reply)")
        }
        return try MetricsScrape(reply.text)
    }

    init(_ text: String) throws {
        self.text = text
        samples = try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(Self.sample)
    }

    /// `name{a="x",b="y"} 1.5`
    static func sample(_ line: Substring) throws -> Sample {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
            throw TestFailure("not a sample line: \(line)")
        }
        let series = line[..<space]
        guard let open = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
        var labels: [String: String] = [:]
        for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw TestFailure("not a label: \(pair) in \(line)") }
            labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
        }
        return Sample(name: String(series[..<open]), labels: labels, value: value)
    }

    /// The sample with exactly these labels; 0 when there is none (a counter not yet moved).
    subscript(name: String, labels: [String: String] = [:]) -> Double {
        samples.first { $0.name == name && $0.labels == labels }?.value ?? 0
    }

    /// Whether the scrape has a sample of this name at all.
    func has(_ name: String) -> Bool {
        samples.contains { $0.name == name }
    }
}
