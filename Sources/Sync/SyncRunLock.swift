import Bridge
import JSON
import SystemIO

/// Runs of one database one at a time, in arrival order: two runs at once would both send the
/// same pending operations.
final class SyncRunLock: Sendable {
    /// The databases with a run in progress.
    private let busy = WaitingBoard(Set<String>())

    /// Runs `body` once no other run of `key` is in progress; a caller cancelled while it waits
    /// does not run, and gets `E_CANCELLED`.
    func serialized(_ key: String, _ body: () async throws(BridgeError) -> JSONValue) async throws(BridgeError) -> JSONValue {
        let turn = await busy.wait(on: [key], { busy in busy.insert(key).inserted ? true : nil }, otherwise: { _ in false })
        guard turn else { throw BridgeError(.cancelled, "the sync run was cancelled while another run of the same database was in progress") }
        defer { busy.update(touching: [key]) { $0.remove(key) } }
        return try await body()
    }
}
