import SyncProtocol
@testable import SyncServer
import Testing

/// A store call that never answers (postgres-nio waiting for a connection to a database that is
/// gone) must not keep a shutting-down server from stopping: the wait ends when its caller is
/// cancelled, as at its time limit.
@Suite("bounded store calls")
struct StoreCallBoundTests {
    @Test("a call that never answers ends with CancellationError when its caller is cancelled, and with an error naming it at its limit")
    func endsOnCancelAndTimeout() async throws {
        let never: @Sendable () async throws -> Int = {
            // Ignores cancellation, as a stuck connection wait does.
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 0
        }
        let waiting = Task { try await HeldPacketSweeper.bounded("the sweep", within: .seconds(600), never) }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await HeldPacketSweeper.bounded("the sweep", within: .seconds(600), never)
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }

        await #expect(throws: SyncServerError.self) { try await HeldPacketSweeper.bounded("the sweep", within: .milliseconds(50), never) }
        #expect(try await HeldPacketSweeper.bounded("the sweep", within: .seconds(600)) { 7 } == 7)
    }
}
