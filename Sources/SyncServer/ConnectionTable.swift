import DequeModule
import NIOCore
import Synchronization

/// Every connection a server has open, by address, with the idle ones in the order they became
/// idle: it admits a new connection within ``ConnectionLimits``, closing the oldest idle one (of
/// the same address when that address is at its bound, else of all) to make room, and refuses it
/// when every connection in its way has a request in progress.
///
/// Shared by the event loops' ``ConnectionGuard``s, hence the lock; a request finds its
/// connection's ``ConnectionLife`` here by its channel.
///
/// ```swift
/// switch table.open(channel, address: "10.0.0.7") {
/// case .admitted(let id, _, let evicted): evicted?.close(promise: nil)   // id: busy(id), idle(id), close(id)
/// case .refused(let bound): channel.close(promise: nil)                // "address" or "total"
/// }
/// ```
final class ConnectionTable: Sendable {
    let limits: ConnectionLimits

    enum Admission {
        /// Room was made by closing `evicted`, the oldest idle connection in the way, if any.
        case admitted(id: Int, life: ConnectionLife, evicted: (any Channel)?)
        /// Every connection in the way of `bound` (`address` or `total`) has a request in progress.
        case refused(bound: String)
    }

    /// An idle connection's place in a queue; stale once the connection is busy again or closed
    /// (its ``Entry/idleStamp`` differs), and skipped then.
    private struct Place {
        var id: Int
        var stamp: Int
    }

    private struct Entry {
        let address: String
        let channel: any Channel
        let life: ConnectionLife
        /// Set while no request is in progress; a new connection is idle until its first head.
        var idleStamp: Int?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var idByChannel: [ObjectIdentifier: Int] = [:]
        var openByAddress: [String: Int] = [:]
        var idle = Deque<Place>()
        var idleByAddress: [String: Deque<Place>] = [:]
        var idleCount = 0
        /// The most connections open at once since ``ConnectionTable/takeHighWater()``.
        var highWater = 0
        var nextId = 0
        var nextStamp = 0

        mutating func markIdle(_ id: Int) {
            guard var entry = entries[id], entry.idleStamp == nil else { return }
            nextStamp += 1
            entry.idleStamp = nextStamp
            entries[id] = entry
            idleCount += 1
            let place = Place(id: id, stamp: nextStamp)
            idle.append(place)
            idleByAddress[entry.address, default: []].append(place)
            // Stale places pile up as connections go busy and idle; drop them once they outnumber
            // the live ones, so the queues stay as long as the idle connections, give or take.
            if idle.count > 2 * idleCount + 64 { idle = Deque(idle.filter(isCurrent)) }
            if let queue = idleByAddress[entry.address], queue.count > 2 * (openByAddress[entry.address] ?? 0) + 16 {
                idleByAddress[entry.address] = Deque(queue.filter(isCurrent))
            }
        }

        mutating func markBusy(_ id: Int) {
            guard var entry = entries[id], entry.idleStamp != nil else { return }
            entry.idleStamp = nil
            entries[id] = entry
            idleCount -= 1
        }

        func isCurrent(_ place: Place) -> Bool {
            entries[place.id]?.idleStamp == place.stamp
        }

        @discardableResult
        mutating func remove(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            idByChannel.removeValue(forKey: ObjectIdentifier(entry.channel))
            if entry.idleStamp != nil { idleCount -= 1 }
            let open = (openByAddress[entry.address] ?? 1) - 1
            if open > 0 {
                openByAddress[entry.address] = open
            } else {
                openByAddress.removeValue(forKey: entry.address)
                idleByAddress.removeValue(forKey: entry.address)
            }
            return entry
        }

        /// Removes and returns the oldest idle connection of `address` (nil: of all), if any.
        mutating func evictOldestIdle(of address: String?) -> (any Channel)? {
            while true {
                let place: Place?
                if let address {
                    place = idleByAddress[address]?.popFirst()
                } else {
                    place = idle.popFirst()
                }
                guard let place else { return nil }
                if isCurrent(place) { return remove(place.id)?.channel }
            }
        }
    }

    private let state = Mutex(State())

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Counts in a new connection from `address`, idle until its first request.
    func open(_ channel: any Channel, address: String) -> Admission {
        state.withLock { state in
            var evicted: (any Channel)?
            if state.openByAddress[address, default: 0] >= limits.maxConnectionsPerAddress {
                guard let oldest = state.evictOldestIdle(of: address) else { return .refused(bound: "address") }
                evicted = oldest
            } else if state.entries.count >= limits.maxConnections {
                guard let oldest = state.evictOldestIdle(of: nil) else { return .refused(bound: "total") }
                evicted = oldest
            }
            state.nextId += 1
            let id = state.nextId
            let life = ConnectionLife()
            state.entries[id] = Entry(address: address, channel: channel, life: life, idleStamp: nil)
            state.idByChannel[ObjectIdentifier(channel)] = id
            state.openByAddress[address, default: 0] += 1
            state.highWater = max(state.highWater, state.entries.count)
            state.markIdle(id)
            return .admitted(id: id, life: life, evicted: evicted)
        }
    }

    /// A request began on connection `id`: it cannot be closed to make room until ``idle(_:)``.
    func busy(_ id: Int) { state.withLock { $0.markBusy(id) } }

    /// Connection `id` has answered every request it read.
    func idle(_ id: Int) { state.withLock { $0.markIdle(id) } }

    /// Connection `id` closed (or was closed to make room: then this does nothing).
    func close(_ id: Int) { state.withLock { _ = $0.remove(id) } }

    /// The life of the connection a request came in on; nil once it is closed.
    func life(of channel: any Channel) -> ConnectionLife? {
        state.withLock { state in state.idByChannel[ObjectIdentifier(channel)].flatMap { state.entries[$0]?.life } }
    }

    /// The most connections open at once since the last call, and how many are open now; the
    /// next call counts from now.
    func takeHighWater() -> (highest: Int, open: Int) {
        state.withLock { state in
            defer { state.highWater = state.entries.count }
            return (state.highWater, state.entries.count)
        }
    }

    /// Connections open, and how many of them are idle, for the metrics.
    var counts: (open: Int, idle: Int) { state.withLock { ($0.entries.count, $0.idleCount) } }
}
