import Bridge
import JSON
import Synchronization

/// Download progress, kept per request id and read by `progress {requestId, since}` long-polls
/// (a ``LongPollBoard``). Finished downloads stay readable for the next `keptFinished` ones.
final class ProgressBoard: Sendable {
    static let keptFinished = 256

    enum State: String, Sendable {
        case waiting, running, done, failed
    }

    struct Snapshot: Sendable {
        var state = State.waiting
        var received: Int64 = 0
        var total: Int64?
        var error: String?

        var finished: Bool { state == .done || state == .failed }
    }

    private let board = LongPollBoard(initial: Snapshot())
    private let finishedOrder = Mutex<[String]>([])

    /// Whether a download with this id is running now.
    func isRunning(_ id: String) -> Bool { board.current(id).value.state == .running }

    func update(_ id: String, _ change: (inout Snapshot) -> Void) {
        var finishedNow = false
        board.update(id) { snapshot in
            let wasFinished = snapshot.finished
            change(&snapshot)
            finishedNow = !wasFinished && snapshot.finished
        }
        guard finishedNow else { return }
        let dropped: String? = finishedOrder.withLock { order in
            order.append(id)
            return order.count > Self.keptFinished ? order.removeFirst() : nil
        }
        if let dropped { board.forget(dropped) }
    }

    func wait(_ id: String, since: Int, timeoutMs: Int) async -> LongPollBoard<Snapshot>.Version {
        await board.wait(id, since: since, timeoutMs: timeoutMs)
    }
}

extension LongPollBoard<ProgressBoard.Snapshot>.Version {
    func json(requestId: String) -> JSONValue {
        var object: JSONObject = [
            "requestId": .string(requestId), "seq": .number(Double(seq)), "state": .string(value.state.rawValue),
            "received": .number(Double(value.received)), "total": value.total.map { .number(Double($0)) } ?? .null,
        ]
        if let error = value.error { object["error"] = .string(error) }
        return .object(object)
    }
}
