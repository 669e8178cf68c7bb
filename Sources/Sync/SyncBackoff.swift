import Bridge
import SyncProtocol
import Synchronization

/// When `sync.live` may try a server again after it was away (refused the connection, timed out,
/// answered 5xx or 429): exponential from 250 ms to 30 s, each delay drawn from its upper half so
/// that devices cut off together do not come back together. One record per database.
final class SyncBackoff: Sendable {
    private struct Record {
        var failures: Int
        var retryAt: ContinuousClock.Instant
    }

    private let records = Mutex([String: Record]())

    static let firstDelayMs = 250
    static let longestDelayMs = 30_000

    /// Waits until `key` may try again (at once when it never failed); `E_CANCELLED` when the
    /// calling task is cancelled meanwhile (the subscription stopped).
    func wait(_ key: String) async throws(BridgeError) {
        guard let retryAt = records.withLock({ $0[key]?.retryAt }), retryAt > .now else { return }
        do {
            try await Task.sleep(until: retryAt, clock: .continuous)
        } catch {
            throw BridgeError(.cancelled, "sync.live stopped while waiting for the server to come back")
        }
    }

    /// Records a failure of `key`; returns the delay before it tries again, in milliseconds.
    func failed(_ key: String) -> Int {
        records.withLock { records in
            let failures = (records[key]?.failures ?? 0) + 1
            let ceiling = min(Self.longestDelayMs, Self.firstDelayMs << min(failures - 1, 16))
            let delay = Int.random(in: ceiling / 2...ceiling)
            records[key] = Record(failures: failures, retryAt: .now + .milliseconds(delay))
            return delay
        }
    }

    func succeeded(_ key: String) {
        _ = records.withLock { $0.removeValue(forKey: key) }
    }

    /// Whether `error` says the server is away for now (try again later), not that it refused
    /// this device or its data: the transport's failures, and 5xx or 429 answers.
    static func isServerAway(_ error: BridgeError) -> Bool {
        guard error.code == .failed, let reason = error.details?["reason"]?.stringValue else { return false }
        switch reason {
        case "server":
            return SyncServerError.isTransient(status: error.details?["status"]?.intValue ?? 0)
        case "not_connected", "not_synced", "unauthorized": return false
        default: return true
        }
    }
}
