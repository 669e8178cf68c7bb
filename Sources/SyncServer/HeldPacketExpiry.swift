import HTTPServing
import SyncProtocol
import SystemIO

/// Which held packets a sweep rejects, and why, decided without a database: each store reads every
/// held packet with its dependency's state, in arrival order, asks here, and rejects what it is
/// told in one transaction. The reasons are SyncProtocol's (``PushRejection``), whose `cause` tells
/// a client that the packet's ops go again.
///
/// A packet held past the hold is rejected when its dependency never arrived, was rejected, or is
/// itself held past the hold with nothing ahead of it but packets held past the hold (two packets
/// that depend on each other, or a chain into such a loop): waiting longer cannot help. One whose
/// chain reaches a packet still within its own hold, or one applied and about to unblock it, waits.
/// Packets are judged oldest first, each seeing what the ones before it became, and a rejection is
/// passed on at once to every packet held behind it, so that a chain whose first packet never
/// came is rejected from that packet on, each naming the one it waited for, whatever the order in
/// which its packets arrived.
///
/// ```swift
/// for rejection in HeldPacketExpiry.rejections(held, now: now, hold: .seconds(30)) {
///     // reject rejection.deviceId / rejection.packetId with rejection.reason
/// }
/// ```
enum HeldPacketExpiry {
    /// A held packet as a sweep reads it.
    struct Held {
        var deviceId: String
        var packetId: String
        var dependency: String
        /// Seconds since 1970.
        var receivedAt: WallTime
        /// The dependency's state, or nil when it never arrived.
        var dependencyState: PacketState?
    }

    struct Rejection: Equatable {
        var deviceId: String
        var packetId: String
        var reason: String
    }

    /// A packet of a device, by its bytes, as the database keys it.
    private struct Key: Hashable {
        var deviceId: ByteString
        var packetId: ByteString
    }

    // MARK: Deciding

    /// The rejections `held` (every held packet, oldest first) calls for at `now`, in the order
    /// they were decided.
    static func rejections(_ held: [Held], now: WallTime, hold: Duration) -> [Rejection] {
        let deadline = now - hold
        var index: [Key: Int] = [:]
        var waitingOn: [Key: [Int]] = [:]
        for (position, packet) in held.enumerated() {
            index[Key(deviceId: ByteString(packet.deviceId), packetId: ByteString(packet.packetId))] = position
            waitingOn[Key(deviceId: ByteString(packet.deviceId), packetId: ByteString(packet.dependency)), default: []].append(position)
        }
        func dependency(of position: Int) -> Int? {
            index[Key(deviceId: ByteString(held[position].deviceId), packetId: ByteString(held[position].dependency))]
        }
        var rejections: [Rejection] = []
        var rejected = Array(repeating: false, count: held.count)
        // Rejects the packet at `position`, then every packet held behind it (iteratively: a
        // chain may be thousands of packets long).
        func reject(_ position: Int, _ reason: String) {
            var pending = [(position, reason)]
            while let (next, why) = pending.popLast() {
                guard !rejected[next] else { continue }
                rejected[next] = true
                rejections.append(Rejection(deviceId: held[next].deviceId, packetId: held[next].packetId, reason: why))
                let key = Key(deviceId: ByteString(held[next].deviceId), packetId: ByteString(held[next].packetId))
                for behind in (waitingOn[key] ?? []).reversed() where !rejected[behind] {
                    pending.append((behind, PushRejection.dependencyRejected(held[next].packetId)))
                }
            }
        }
        let expired = held.indices.filter { held[$0].receivedAt <= deadline }
        for position in expired where !rejected[position] {
            switch held[position].dependencyState {
            case nil: reject(position, PushRejection.dependencyNotReceived(held[position].dependency, holdSeconds: hold.seconds))
            case .rejected?: reject(position, PushRejection.dependencyRejected(held[position].dependency))
            case .held?, .applied?: break
            }
        }
        // What is left waits on a held packet. Follow each chain: it waits while it reaches a
        // packet within its hold (or one about to be applied); a loop of overdue packets never ends.
        var waits = Array(repeating: false, count: held.count)
        for position in expired where !rejected[position] && held[position].dependencyState == .held {
            var path: [Int] = []
            var onPath: Set<Int> = []
            var current: Int? = position
            var waiting = false
            while let here = current, !onPath.contains(here) {
                if waits[here] || held[here].receivedAt > deadline || held[here].dependencyState == .applied {
                    waiting = true
                    break
                }
                path.append(here)
                onPath.insert(here)
                current = held[here].dependencyState == .held ? dependency(of: here) : nil
            }
            // A chain that ran out (a dependency held, but not read as such) waits for the next sweep.
            if current == nil { waiting = true }
            if waiting {
                for step in path { waits[step] = true }
            } else {
                reject(position, PushRejection.dependencyStillHeld(held[position].dependency, holdSeconds: hold.seconds))
            }
        }
        return rejections
    }
}
