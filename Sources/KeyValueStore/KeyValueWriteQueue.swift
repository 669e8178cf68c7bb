import Persistence
import Synchronization

/// The `kv.set` transactions waiting for the writer, run back to back by one caller at a time.
///
/// Why: when every caller blocked on the writer itself, each commit handed the writer to a parked
/// thread, and waking that thread cost more than the transaction (a lock convoy: `kv.set` at 12k/s
/// on two cores, the cores half idle). Here the caller that finds the queue idle runs the queued
/// transactions in turn, each still its own transaction on the ``DataCenter``'s one write path,
/// and resumes each waiter as its transaction commits; the others only enqueue and suspend.
final class KeyValueWriteQueue: Sendable {
    /// Transactions one caller runs before handing the rest to a task of their own, so that its
    /// own answer is not held back behind a steady stream of others.
    static let turn = 64

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var running = false
    }

    private let state = Mutex(State())

    /// Runs `body` when its turn comes, on whichever thread is running the queue.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(Persistence.PersistenceError) -> T) async throws(Persistence.PersistenceError) -> T {
        let result: Result<T, PersistenceError> = await withCheckedContinuation { continuation in
            let job: @Sendable () -> Void = {
                do throws(Persistence.PersistenceError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            let idle = state.withLock { state -> Bool in
                state.jobs.append(job)
                if state.running { return false }
                state.running = true
                return true
            }
            if idle { drain() }
        }
        return try result.get()
    }

    private func drain() {
        var done = 0
        while true {
            let jobs = state.withLock { state -> [@Sendable () -> Void] in
                let jobs = state.jobs
                state.jobs = []
                if jobs.isEmpty { state.running = false }
                return jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job() }
            done += jobs.count
            if done >= Self.turn {
                // Still running: the rest, and what arrives meanwhile, go to a task of their own.
                Task.detached { self.drain() }
                return
            }
        }
    }
}
