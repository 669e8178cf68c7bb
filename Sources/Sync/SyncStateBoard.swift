import JSON
import Synchronization

/// A counter per database that moves whenever its sync state may have changed (a run, a retry, a
/// resolve), and the `sync.watch` long-polls waiting on it.
final class SyncStateBoard: Sendable {
    static let shared = SyncStateBoard()

    private struct Board {
        var seqs: [String: Int] = [:]
        var waiters: [String: [Int: CheckedContinuation<Int, Never>]] = [:]
        var nextWaiter = 0
    }

    private let board = Mutex(Board())

    func seq(_ key: String) -> Int { board.withLock { $0.seqs[key] ?? 0 } }

    func bump(_ key: String) {
        let (seq, woken) = board.withLock { board -> (Int, [CheckedContinuation<Int, Never>]) in
            let seq = (board.seqs[key] ?? 0) + 1
            board.seqs[key] = seq
            let woken = Array((board.waiters.removeValue(forKey: key) ?? [:]).values)
            return (seq, woken)
        }
        for continuation in woken { continuation.resume(returning: seq) }
    }

    /// The seq once it is past `since`, or as it is after `timeoutMs`.
    func wait(_ key: String, since: Int, timeoutMs: Int) async -> Int {
        let id = board.withLock { board -> Int in
            board.nextWaiter += 1
            return board.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let now: Int? = board.withLock { board in
                    let seq = board.seqs[key] ?? 0
                    if seq > since { return seq }
                    board.waiters[key, default: [:]][id] = continuation
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                    return
                }
                Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(timeoutMs))
                    self?.release(key, id)
                }
            }
        } onCancel: {
            release(key, id)
        }
    }

    private func release(_ key: String, _ id: Int) {
        let found = board.withLock { board -> (CheckedContinuation<Int, Never>, Int)? in
            guard let continuation = board.waiters[key]?.removeValue(forKey: id) else { return nil }
            return (continuation, board.seqs[key] ?? 0)
        }
        if let (continuation, seq) = found { continuation.resume(returning: seq) }
    }
}
