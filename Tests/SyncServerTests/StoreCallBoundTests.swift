import HTTPServing
import HostTesting
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
        let clock = ManualClock()
        let bounded = { @Sendable (limit: Duration, body: @escaping @Sendable () async throws -> Int) in
            try await StoreHealth.answer(within: limit, on: clock, what: "the sweep", body)
        }
        let waiting = Task { try await bounded(.seconds(600), never) }
        #expect(try await eventually { clock.sleepers == 1 })
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await bounded(.seconds(600), never)
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }

        // Its limit, on the clock it is given: ten minutes pass in no time.
        let late = Task { try await bounded(.seconds(600), never) }
        #expect(try await eventually { clock.sleepers == 1 })
        clock.advance(by: .seconds(599))
        clock.advance(by: .seconds(1))
        await #expect(throws: StoreCallTimeout.self) { try await late.value }
        #expect(try await bounded(.seconds(600)) { 7 } == 7)
    }
}
