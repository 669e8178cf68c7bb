/// A scrape of a Prometheus text exposition (the sync server's `GET /v1/metrics`), parsed: each
/// sample by its name and labels, as a monitoring system would read it. Shared by the server's
/// tests and `hybrid-bench sync-server`, which reads each instance's counters around its window.
///
/// ```swift
/// let scrape = try MetricsText(text)
/// scrape["hybrid_sync_requests_total", ["endpoint": "push", "status": "200"]]   // 3
/// ```
public struct MetricsText: Sendable {
    public struct Sample: Sendable {
        public let name: String
        public let labels: [String: String]
        public let value: Double
    }

    public struct NotASample: Error, CustomStringConvertible {
        public let description: String
    }

    public let samples: [Sample]
    public let text: String

    public init(_ text: String) throws {
        self.text = text
        samples = try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(Self.sample)
    }

    /// `name{a="x",b="y"} 1.5`
    static func sample(_ line: Substring) throws -> Sample {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
            throw NotASample(description: "not a sample line: \(line)")
        }
        let series = line[..<space]
        guard let open = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
        var labels: [String: String] = [:]
        for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw NotASample(description: "not a label: \(pair) in \(line)") }
            labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
        }
        return Sample(name: String(series[..<open]), labels: labels, value: value)
    }

    /// The sample with exactly these labels; 0 when there is none (a counter not yet moved).
    public subscript(name: String, labels: [String: String] = [:]) -> Double {
        samples.first { $0.name == name && $0.labels == labels }?.value ?? 0
    }

    /// The sum of the samples of this name whose labels include `labels` (a counter over all its
    /// other labels: every status of one endpoint, say).
    public func sum(_ name: String, including labels: [String: String]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.reduce(0) { $0 + $1.value }
    }

    /// Whether the scrape has a sample of this name at all.
    public func has(_ name: String) -> Bool {
        samples.contains { $0.name == name }
    }
}
