import CurlTransport
import Synchronization

/// Identical GETs in flight at once share one transfer: the second caller waits for the
/// first one's answer instead of asking the server again. The transfer is cancelled only when
/// every caller waiting for it has gone.
final class SharedTransfers: Sendable {

    /// One transfer and the callers waiting for it.
    // @unchecked: `waiters` is read and written only under `SharedTransfers.table`'s lock; `task` is set once, under that lock, before the flight is published.
    final class Flight: @unchecked Sendable {
        let id: Int
        /// Guarded by the table's lock.
        var waiters = 1
        var task: Task<TransferResponse, any Error>!
        init(id: Int) { self.id = id }
    }

    private struct Table {
        var flights: [String: Flight] = [:]
        var nextID = 0
    }

    private let table = Mutex(Table())

    /// How many distinct transfers are running (for tests).
    var inFlight: Int { table.withLock { $0.flights.count } }

    /// The transfer in flight for `key`, joined (counted as one more caller waiting for it), or
    /// nil when there is none. A caller that joins must `wait(for:key:)` it.
    func join(key: String) -> Flight? {
        table.withLock { state in
            guard let flight = state.flights[key] else { return nil }
            flight.waiters += 1
            return flight
        }
    }

    /// Joins the transfer in flight for `key`, or starts one with `perform`, and waits for it.
    func fetch(key: String, perform: @escaping @Sendable () async throws(TransferError) -> TransferResponse) async throws(TransferError) -> TransferResponse {
        let flight: Flight = table.withLock { state in
            if let flight = state.flights[key] {
                flight.waiters += 1
                return flight
            }
            state.nextID += 1
            let flight = Flight(id: state.nextID)
            let id = flight.id
            // Created under the lock, so the task's removal below cannot run before the insertion.
            // It runs on the curl thread: it only awaits the transfer, and its callers are resumed
            // straight from there.
            flight.task = Task(executorPreference: CurlClient.shared.executor) { [self] in
                defer { table.withLock { state in if state.flights[key]?.id == id { state.flights[key] = nil } } }
                return try await perform()
            }
            state.flights[key] = flight
            return flight
        }
        return try await wait(for: flight, key: key)
    }

    /// Waits for a joined `flight`; a caller that goes (its task cancelled) stops waiting, and the
    /// last one to go cancels the transfer.
    func wait(for flight: Flight, key: String) async throws(TransferError) -> TransferResponse {
        do {
            return try await withTaskCancellationHandler {
                try await flight.task.value
            } onCancel: {
                let last = table.withLock { table -> Bool in
                    flight.waiters -= 1
                    guard flight.waiters == 0 else { return false }
                    // A caller arriving from now on starts afresh rather than joining a cancelled transfer.
                    if table.flights[key]?.id == flight.id { table.flights[key] = nil }
                    return true
                }
                if last { flight.task.cancel() }
            }
        } catch let error as TransferError {
            throw error
        } catch {
            throw TransferError(.cancelled, "the request was cancelled")
        }
    }
}
