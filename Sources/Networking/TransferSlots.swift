import Bridge
import Synchronization

/// The app's `network` calls running at once, held to its quota (`app.json` `quotas.transfers`).
/// A call past it is refused at once with `E_TOO_MANY`, as the bridge refuses calls past
/// `callsInFlight`, rather than queued: a queue the app cannot see would turn a burst into
/// requests that time out while they wait, and the app knows better which of its calls can wait.
final class TransferSlots: Sendable {
    private let running = Mutex(0)

    /// Runs `body` holding one slot, or throws `E_TOO_MANY` when `limit` are taken.
    func holding<T>(limit: Int, action: String, _ body: () async throws(BridgeError) -> T) async throws(BridgeError) -> T {
        let taken = running.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard taken else {
            throw BridgeError(.tooMany, "network.\(action): \(limit) transfers are running, the app's quota (app.json quotas.transfers: \(limit)); await some before starting more",
                              details: ["limit": .number(Double(limit)), "quota": "transfers"])
        }
        defer { running.withLock { $0 -= 1 } }
        return try await body()
    }
}
