import HostTesting

/// What one sync server's own counters (`GET /v1/metrics`) say about a window of the load run:
/// how its pulls were read (memory or store), how it learnt of commits, its pushes by outcome. The
/// CPU figures say how much a setup cost; these say where a server's reads went, so that a costly
/// run shows whether memory stopped answering.
struct ServerCounters: Sendable {
    var pullsFromMemory: Double
    var pullsFromStore: Double
    var commitsFromNews: Double
    var pulls: Double
    var pushes: Double
    var pushesHeld: Double

    init(_ scrape: MetricsText) {
        pullsFromMemory = scrape["hybrid_sync_pull_reads_from_memory_total"]
        pullsFromStore = scrape["hybrid_sync_pull_reads_from_store_total"]
        commitsFromNews = scrape["hybrid_sync_log_commits_from_news_total"]
        pulls = scrape.sum("hybrid_sync_requests_total", including: ["endpoint": "pull"])
        pushes = scrape.sum("hybrid_sync_requests_total", including: ["endpoint": "push"])
        pushesHeld = scrape["hybrid_sync_pushes_total", ["outcome": "held"]]
    }

    /// The counters' growth from `before` to this scrape.
    func since(_ before: ServerCounters) -> ServerCounters {
        var moved = self
        moved.pullsFromMemory -= before.pullsFromMemory
        moved.pullsFromStore -= before.pullsFromStore
        moved.commitsFromNews -= before.commitsFromNews
        moved.pulls -= before.pulls
        moved.pushes -= before.pushes
        moved.pushesHeld -= before.pushesHeld
        return moved
    }

    var summary: String {
        let count = { (value: Double) in String(Int(value.rounded())) }
        return "\(count(pulls)) pulls answered (reads: \(count(pullsFromMemory)) from memory, \(count(pullsFromStore)) from the store), "
            + "\(count(pushes)) pushes (\(count(pushesHeld)) held), \(count(commitsFromNews)) commits taken from their NOTIFY"
    }

    /// Every server's counters now; nil for one that did not answer.
    static func scrape(_ clients: [LoadHTTPClient]) async -> [ServerCounters?] {
        var all: [ServerCounters?] = []
        for client in clients { all.append(await client.metrics().map(ServerCounters.init)) }
        return all
    }
}
