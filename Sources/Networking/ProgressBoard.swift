import JSON
import Synchronization

/// Download progress, kept per request id and read by long-polls (`progress {requestId, since}`):
/// a poll resolves at once when the download has moved on since `since`, else at its next step,
/// else unchanged after `timeoutMs`. A poll may come before its download has started (both calls
/// leave JS in the same tick); it then waits for the download to appear.
final class ProgressBoard: Sendable {
    static let shared = ProgressBoard()
    /// Finished downloads stay readable for this many later ones.
    static let keptFinished = 256

    enum State: String, Sendable {
        case waiting, running, done, failed
    }

    struct Snapshot: Sendable {
        var seq = 0
        var state = State.waiting
        var received: Int64 = 0
        var total: Int64?
        var error: String?
    }

    private struct Waiter {
        var since: Int
        var continuation: CheckedContinuation<Snapshot, Never>
    }

    private struct Entry {
        var snapshot = Snapshot()
        var waiters: [Int: Waiter] = [:]
    }

    private struct Board {
        var entries: [String: Entry] = [:]
        var finishedOrder: [String] = []
        var nextWaiter = 0
    }

    private let board = Mutex(Board())

    /// Whether a download with this id is running now.
    func isRunning(_ id: String) -> Bool {
        board.withLock { $0.entries[id]?.snapshot.state == .running }
    }

    func update(_ id: String, _ change: (inout Snapshot) -> Void) {
        let ready: [(CheckedContinuation<Snapshot, Never>, Snapshot)] = board.withLock { board in
            var entry = board.entries[id] ?? Entry()
            let wasFinished = entry.snapshot.state == .done || entry.snapshot.state == .failed
            change(&entry.snapshot)
            entry.snapshot.seq += 1
            let snapshot = entry.snapshot
            let woken = entry.waiters.values.filter { snapshot.seq > $0.since }.map { ($0.continuation, snapshot) }
            entry.waiters = entry.waiters.filter { snapshot.seq <= $0.value.since }
            board.entries[id] = entry
            if !wasFinished, snapshot.state == .done || snapshot.state == .failed {
                board.finishedOrder.append(id)
                if board.finishedOrder.count > Self.keptFinished {
                    let dropped = board.finishedOrder.removeFirst()
                    if board.entries[dropped]?.waiters.isEmpty ?? true { board.entries[dropped] = nil }
                }
            }
            return woken
        }
        for (continuation, snapshot) in ready { continuation.resume(returning: snapshot) }
    }

    func wait(_ id: String, since: Int, timeoutMs: Int) async -> Snapshot {
        let waiter = board.withLock { board -> Int in
            board.nextWaiter += 1
            return board.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Snapshot, Never>) in
                let immediate: Snapshot? = board.withLock { board in
                    var entry = board.entries[id] ?? Entry()
                    if entry.snapshot.seq > since { return entry.snapshot }
                    entry.waiters[waiter] = Waiter(since: since, continuation: continuation)
                    board.entries[id] = entry
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(timeoutMs))
                    self?.release(id, waiter)
                }
            }
        } onCancel: {
            release(id, waiter)
        }
    }

    /// Answers a waiter with the state as it is (a timeout or a cancelled poll).
    private func release(_ id: String, _ waiter: Int) {
        let found: (Waiter, Snapshot)? = board.withLock { board in
            guard let waiting = board.entries[id]?.waiters.removeValue(forKey: waiter) else { return nil }
            let snapshot = board.entries[id]!.snapshot
            if snapshot.seq == 0, board.entries[id]!.waiters.isEmpty { board.entries[id] = nil }
            return (waiting, snapshot)
        }
        if let (waiting, snapshot) = found { waiting.continuation.resume(returning: snapshot) }
    }
}

extension ProgressBoard.Snapshot {
    func json(requestId: String) -> JSONValue {
        var object: JSONObject = [
            "requestId": .string(requestId), "seq": .number(Double(seq)), "state": .string(state.rawValue),
            "received": .number(Double(received)), "total": total.map { .number(Double($0)) } ?? .null,
        ]
        if let error { object["error"] = .string(error) }
        return .object(object)
    }
}
