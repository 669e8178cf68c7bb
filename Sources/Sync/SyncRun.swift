import Bridge
import CurlTransport
import Foundation
import JSON
import SyncClient
import SyncProtocol

/// One sync run of one database: pull, execute, then push.
///
/// Pulling first means the pushes that follow were made on top of everything pulled, and the
/// to-execute table means a run cut short (a crash, a SIGKILL) resumes where it stopped: pulled
/// pages are kept with their cursor in one transaction, executed in another, and every packet is
/// recorded before it is sent, so a retry sends the same packet and the server applies it once.
struct SyncRun {
    let replica: SyncReplica
    let connection: SyncReplica.Connection
    let client: SyncServerClient
    let pulls: Bool
    /// A first page already fetched after a cursor (the held pull of `sync.live`): used instead of
    /// asking again when the cursor is still that one.
    var prefetched: Prefetched?
    /// Operations per packet.
    var packetSize = 1000
    /// Pulled operations handed to the execution in memory, at most (about 1 KB each).
    static let executionHandOff = 100_000

    /// The held pull's answer after `cursor`, and its page when it read as one.
    struct Prefetched: Sendable {
        var cursor: Int
        var answer: SyncServerClient.Answer
        var page: PullPage?
    }

    struct Totals {
        var pushed = 0, pulled = 0, applied = 0, conflicts = 0, held = 0, failed = 0
        /// Rows received from a snapshot (a newly granted scope, or a start after compaction).
        var backfilled = 0
        /// Rows dropped because their scope is not the device's (a revoked scope).
        var evicted = 0

        var json: JSONValue {
            ["pushed": .number(Double(pushed)), "pulled": .number(Double(pulled)), "applied": .number(Double(applied)),
             "conflicts": .number(Double(conflicts)), "held": .number(Double(held)), "failed": .number(Double(failed)),
             "backfilled": .number(Double(backfilled)), "evicted": .number(Double(evicted))]
        }
    }

    func run() async throws(BridgeError) -> Totals {
        var totals = Totals()
        if pulls { try await pull(into: &totals) }
        try await push(into: &totals)
        return totals
    }

    private func pull(into totals: inout Totals) async throws(BridgeError) {
        var cursor = try bridged { try replica.cursor() }
        // What this run stored, handed to the execution so it need not parse it again (bounded:
        // a larger pull is read back from the to-execute table).
        var stored: [Int: LoggedOperation] = [:]
        var answer: SyncServerClient.Answer
        var decoded: PullPage?
        if let prefetched, prefetched.cursor == cursor {
            answer = prefetched.answer
            decoded = prefetched.page
        } else {
            answer = try await pullPage(after: cursor)
        }
        if answer.status == 410 {
            // The log before our cursor was compacted (or we are new to a compacted server): start
            // again from a snapshot of everything our scopes see, then the log after it.
            cursor = try await backfill(part: "all", resetCursor: true, into: &totals)
            answer = try await pullPage(after: cursor)
            decoded = nil
        }
        var page: PullPage
        if let decoded { page = decoded } else { page = try pullPage(answer) }
        let scopes = page.scopes
        if let scopes, let known = try bridged({ try replica.knownScopes() }) {
            // A newly granted scope: its rows as they are now; the log from our cursor brings the rest.
            for scope in scopes where !known.contains(scope) {
                _ = try await backfill(part: "scope:" + scope, resetCursor: false, into: &totals)
            }
        }
        while true {
            let ops = page.ops, next = page.cursor
            let more = page.more && !ops.isEmpty
            // The next page travels while this one is stored (cancelled with this scope on a throw).
            async let following = more ? pullPage(after: next) : nil
            try bridged { try replica.storePulled(ops, cursor: next) }
            if stored.count + ops.count <= Self.executionHandOff {
                for op in ops { stored[op.seq] = op }
            }
            totals.pulled += ops.count
            let nextAnswer: SyncServerClient.Answer?
            do {
                nextAnswer = try await following
            } catch let error as BridgeError {
                throw error
            } catch {
                throw BridgeError.failed(reason: "server", "pull from \(connection.server) failed: \(error)")
            }
            guard let nextAnswer else { break }
            page = try pullPage(nextAnswer)
        }
        let execution = try bridged { try replica.executePulled(deviceId: connection.deviceId, stored: stored, scopes: scopes) }
        totals.applied += execution.applied
        totals.conflicts += execution.conflicts
        totals.evicted += execution.evicted
    }

    /// Fetches one part of the server's state page by page, applying each page as it comes (the
    /// next one travels meanwhile); returns the first page's cursor, the log position to pull
    /// from afterwards (which becomes the cursor when `resetCursor`).
    private func backfill(part: String, resetCursor: Bool, into totals: inout Totals) async throws(BridgeError) -> Int {
        let path = "/v1/snapshot?deviceId=\(connection.deviceId)&part=\(Self.escaped(part))&limit=\(packetSize * 5)"
        var answer = try await client.get(path)
        var first: Int?
        while true {
            let snapshot = try read(answer, "snapshot page", from: "snapshot", SyncSnapshot.decode)
            let start = first ?? snapshot.cursor
            first = start
            let after = snapshot.next.map { "&afterTable=\(Self.escaped($0.table))&afterDataId=\(Self.escaped($0.dataId))" }
            async let following = page(after.map { path + $0 })
            try bridged { try replica.applySnapshotRows(snapshot.tables, cursor: resetCursor ? start : nil, deviceId: connection.deviceId) }
            totals.backfilled += snapshot.tables.values.reduce(0) { $0 + $1.count }
            let nextAnswer: SyncServerClient.Answer?
            do {
                nextAnswer = try await following
            } catch let error as BridgeError {
                throw error
            } catch {
                throw BridgeError.failed(reason: "server", "snapshot from \(connection.server) failed: \(error)")
            }
            guard let nextAnswer else { return start }
            answer = nextAnswer
        }
    }

    /// A GET, or nothing when there is no page to fetch.
    private func page(_ path: String?) async throws(BridgeError) -> SyncServerClient.Answer? {
        guard let path else { return nil }
        return try await client.get(path)
    }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    private func pullPage(after cursor: Int) async throws(BridgeError) -> SyncServerClient.Answer {
        try await client.get(Self.pullPath(deviceId: connection.deviceId, after: cursor))
    }

    private func pullPage(_ answer: SyncServerClient.Answer) throws(BridgeError) -> PullPage {
        try read(answer, "pull page", from: "pull", PullPage.decode)
    }

    /// A 200's body read as `what`; any other status is the server's refusal.
    private func read<Message>(_ answer: SyncServerClient.Answer, _ what: String, from request: String,
                               _ decode: (JSONValue) throws(SyncWireError) -> Message) throws(BridgeError) -> Message {
        let asked = "\(request) from \(connection.server)"
        guard answer.status == 200 else { throw SyncServerClient.failure(asked, answer) }
        do {
            return try answer.decoded(what, decode)
        } catch {
            throw SyncServerClient.failure(asked, answer, unreadable: error)
        }
    }

    /// One page of the log after `cursor`; `waitMs` holds it on the server while there is none.
    static func pullPath(deviceId: String, after cursor: Int, waitMs: Int? = nil) -> String {
        "/v1/pull?deviceId=\(deviceId)&after=\(cursor)&limit=1000" + (waitMs.map { "&waitMs=\($0)" } ?? "")
    }

    /// The push's answer, or nil for a refusal (read as the server's error). A 200 or 202 that does
    /// not read is an error naming what it lacks; a 409 that is no JSON is a refusal.
    private func pushAnswer(_ answer: SyncServerClient.Answer, asked: String) throws(BridgeError) -> PushAnswer? {
        guard answer.status == 200 || answer.status == 202 || (answer.status == 409 && (try? answer.body.get()) != nil) else { return nil }
        do {
            return try answer.decoded("push answer") { body throws(SyncWireError) in try PushAnswer.decode(status: answer.status, body: body) }
        } catch {
            throw SyncServerClient.failure(asked, answer, unreadable: error)
        }
    }

    private func push(into totals: inout Totals) async throws(BridgeError) {
        // Packets go one after another: each depends on the one before, so the server would only
        // hold a later one until the earlier arrived.
        pushing: while true {
            let packets = try bridged { try replica.packetsToSend(deviceId: connection.deviceId, maxOps: packetSize) }
            guard !packets.isEmpty else { return }
            for packet in packets {
                let answer = try await client.post("/v1/push", body: packet.body)
                let asked = "push to \(connection.server)"
                switch try pushAnswer(answer, asked: asked) {
                case .applied?:
                    try bridged { try replica.packetApplied(packet) }
                    totals.pushed += packet.opIds.count
                case .held?:
                    try bridged { try replica.packetHeld(packet) }
                    totals.held += 1
                    return
                case .rejected(let rejection)?:
                    switch rejection.cause {
                    case .scope(let opId):
                        // One op outside the token's scopes, found when the held packet settled: it
                        // alone fails, "scope: ..."; the packet's other ops and the packets after it
                        // go again, in a new packet.
                        try bridged { try replica.packetRefused(packet, opId: opId, reason: "scope: " + rejection.reason) }
                        totals.failed += 1
                        continue pushing
                    case .dependency:
                        // Refused only because a packet before it was: its ops go again, in a new packet.
                        try bridged { try replica.packetRefused(packet, opId: nil, reason: rejection.reason) }
                        continue pushing
                    case .refused:
                        try bridged { try replica.packetRejected(packet, reason: rejection.reason) }
                        totals.failed += packet.opIds.count
                    }
                case nil:
                    let refusal = answer.refusal
                    if answer.status == 403 || answer.status == 409, let refusal, let opId = refusal.opId {
                        // One op outside the token's scopes, refused now: as above.
                        try bridged { try replica.packetRefused(packet, opId: opId, reason: "scope: " + refusal.message) }
                        totals.failed += 1
                        continue pushing
                    }
                    guard [409, 400, 413, 403].contains(answer.status) else { throw SyncServerClient.failure(asked, answer) }
                    try bridged { try replica.packetRejected(packet, reason: answer.message) }
                    totals.failed += packet.opIds.count
                }
            }
        }
    }
}
