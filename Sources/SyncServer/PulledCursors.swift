import Synchronization
import SystemIO

/// What the pulls answered from memory (``RecentLog``) have pulled, written to the store in one
/// batch every sweep (``SyncStore/recordPulls(_:)``) instead of one update per pull. The cursors
/// only tell compaction what every device already holds, so a second's delay makes compaction
/// keep a little more, never less.
final class PulledCursors: Sendable {
    private let pending = Mutex<[String: PulledCursor]>([:])

    /// `deviceId` pulled from `cursor` at `at`.
    func note(deviceId: String, cursor: Int, at: WallTime) {
        pending.withLock { pending in
            let earlier = pending[deviceId]
            pending[deviceId] = PulledCursor(cursor: max(cursor, earlier?.cursor ?? cursor), at: max(at, earlier?.at ?? at))
        }
    }

    /// Writes what was noted since the last time; on failure keeps it for the next.
    func write(to store: any SyncStore) async throws {
        let batch = pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        do {
            try await store.recordPulls(batch)
        } catch {
            for (deviceId, pulled) in batch { note(deviceId: deviceId, cursor: pulled.cursor, at: pulled.at) }
            throw error
        }
    }
}
