import Bridge
import CurlTransport
import JSON
import Persistence

/// One sync run of one database (SPEC §6): pull, execute, then push.
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
    /// Operations per packet.
    var packetSize = 1000

    struct Totals {
        var pushed = 0, pulled = 0, applied = 0, conflicts = 0, held = 0, failed = 0

        var json: JSONValue {
            ["pushed": .number(Double(pushed)), "pulled": .number(Double(pulled)), "applied": .number(Double(applied)),
             "conflicts": .number(Double(conflicts)), "held": .number(Double(held)), "failed": .number(Double(failed))]
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
        while true {
            let answer = try await client.get("/v1/pull?deviceId=\(connection.deviceId)&after=\(cursor)&limit=1000")
            guard answer.status == 200, let ops = answer.body["ops"]?.arrayValue, let next = answer.body["cursor"]?.intValue else {
                throw BridgeError.failed(reason: "server", "pull from \(connection.server) answered \(answer.status): \(SyncServerClient.message(answer))",
                                         details: ["status": .number(Double(answer.status))])
            }
            try bridged { try replica.storePulled(ops, cursor: next) }
            totals.pulled += ops.count
            cursor = next
            if answer.body["more"]?.boolValue != true || ops.isEmpty { break }
        }
        let execution = try bridged { try replica.executePulled(deviceId: connection.deviceId) }
        totals.applied += execution.applied
        totals.conflicts += execution.conflicts
    }

    private func push(into totals: inout Totals) async throws(BridgeError) {
        // Packets go one after another: each depends on the one before, so the server would only
        // hold a later one until the earlier arrived.
        while true {
            let packets = try bridged { try replica.packetsToSend(deviceId: connection.deviceId, maxOps: packetSize) }
            guard !packets.isEmpty else { return }
            for packet in packets {
                let answer = try await client.post("/v1/push", body: packet.body)
                switch answer.status {
                case 200:
                    try bridged { try replica.packetApplied(packet) }
                    totals.pushed += packet.opIds.count
                case 202:
                    try bridged { try replica.packetHeld(packet) }
                    totals.held += 1
                    return
                case 409, 400, 413:
                    let reason = answer.body["reason"]?.stringValue ?? SyncServerClient.message(answer)
                    try bridged { try replica.packetRejected(packet, reason: reason) }
                    totals.failed += packet.opIds.count
                default:
                    throw BridgeError.failed(reason: "server", "push to \(connection.server) answered \(answer.status): \(SyncServerClient.message(answer))",
                                             details: ["status": .number(Double(answer.status))])
                }
            }
        }
    }
}
