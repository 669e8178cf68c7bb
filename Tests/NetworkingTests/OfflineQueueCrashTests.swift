import Foundation
import HostTesting
import Testing

/// The issue's acceptance test: a `hybrid run` child enqueues 1,000 requests across four queues
/// while the server is down and is SIGKILLed twice (once while enqueueing, once while the queue
/// drains); a last run, with the server up, sends the rest.
///
/// What is asserted, exactly: the server applies a request the first time its Idempotency-Key
/// arrives and treats the key again as a replay (as a server honouring the header does). Then
/// every one of the 1,000 requests was applied exactly once; per queue, in the order enqueued;
/// every key that arrived is one of those 1,000; and a key arrived twice only for an item in flight
/// at the kill during the drain (at most one per queue: 4). No request was enqueued twice by the
/// script resuming after a kill (it counts what the store holds, and an answered enqueue is on disk).
@Suite("network: the offline queue survives SIGKILL", .serialized)
struct OfflineQueueCrashTests {
    static var hybrid: String? { BuiltHybrid.path }
    static let total = 1000

    static let client = """
        const [base] = Hybrid.args;
        const net = (action, params) => Hybrid.call("network", action, params);
        const queues = ["a", "b", "c", "d"];
        const total = \(total);
        const count = (status, states) => Object.values(status.queues).reduce((sum, q) => sum + states.reduce((s, k) => s + q[k], 0), 0);
        (async () => {
          // What the store holds is what was enqueued: an answered enqueue was committed first.
          let n = count(await net("queueStatus", { limit: 0 }), ["pending", "sending", "delivered", "failed"]);
          console.log(`resume ${n}`);
          for (; n < total; n++) {
            const queue = queues[n % queues.length];
            await net("enqueue", { queue, request: { url: `${base}/inbox/${queue}`, json: { n } } });
            console.log(`enqueued ${n}`);
          }
          console.log("all enqueued");
          let after = 0;
          while (count(await net("queueStatus", { limit: 0 }), ["delivered"]) < total) {
            after = (await net("queueWatch", { after, timeoutMs: 1000, limit: 1000 })).cursor;
          }
          console.log("drained");
        })();
        """

    @Test("1,000 requests enqueued while the server is down, the app killed twice: each delivered exactly once, in order per queue",
          .enabled(if: hybrid != nil, "needs the hybrid binary beside the tests (swift build first)"),
          .timeLimit(.minutes(5)))
    func killedTwice() async throws {
        let server = try await InboxServer.down()
        let folder = NSTemporaryDirectory() + "offline-queue-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/client.js"
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        let arguments = ["run", script, "--data-dir", folder + "/data", "--grant", "network:127.0.0.1", "--", server.base]

        // 1: the server is down; killed after 300 answered enqueues.
        let first = try LiveProcess(Self.hybrid!, arguments)
        #expect(await first.wait(timeout: 120) { Self.enqueued($0.standardOutput) >= 300 || $0.exitStatus != nil })
        first.stop()
        let firstCount = Self.enqueued(first.output.standardOutput)

        // 2: still down while it enqueues the rest; the server comes up, and the run is killed mid-drain.
        let second = try LiveProcess(Self.hybrid!, arguments)
        #expect(await second.wait(timeout: 120) { $0.standardOutput.contains("all enqueued") || $0.exitStatus != nil }, "\(second.output)")
        #expect(server.all.isEmpty)
        try await server.start()
        defer { Task { await server.stop() } }
        #expect(await second.wait(timeout: 120) { _ in server.all.count >= 400 })
        second.stop()
        let resumed = second.output.standardOutput.split(separator: "\n").first { $0.hasPrefix("resume ") }
        #expect(resumed.flatMap { Int($0.dropFirst(7)) }.map { $0 >= firstCount } == true, "resumed at \(String(describing: resumed)) after \(firstCount) answered")
        #expect(!second.output.standardOutput.contains("drained"), "killed mid-drain: \(server.all.count) arrived")

        // 3: runs until everything is delivered.
        let third = try LiveProcess(Self.hybrid!, arguments)
        #expect(await third.wait(timeout: 180) { $0.exitStatus != nil }, "\(third.output)")
        third.stop()
        #expect(third.output.standardOutput.contains("drained"), "\(third.output)")
        #expect(third.output.exitStatus == 0, "\(third.output)")

        let arrivals = server.all
        let applied = arrivals.filter { !$0.replay }
        #expect(applied.count == Self.total, "applied \(applied.count)")
        #expect(Set(applied.map(\.key)).count == Self.total)
        for (index, queue) in ["a", "b", "c", "d"].enumerated() {
            let expected = stride(from: index, to: Self.total, by: 4).map { #"{"n":\#($0)}"# }
            #expect(server.applied(queue) == expected, "queue \(queue) out of order or incomplete")
        }
        let replays = arrivals.filter(\.replay)
        #expect(replays.count <= 4, "replayed keys: \(replays.map(\.body))")
    }

    /// Whole lines `enqueued N` the child printed.
    static func enqueued(_ output: String) -> Int {
        let whole = output.hasSuffix("\n") ? Substring(output) : output[..<(output.lastIndex(of: "\n") ?? output.startIndex)]
        return whole.split(separator: "\n").filter { $0.hasPrefix("enqueued ") }.count
    }
}
