import Bridge
import Foundation
import GRDB
import JSON
import Persistence

/// The offline queue's items in one SQLite file of the app's data folder
/// (`.network-queue.sqlite`, a hidden entry no download may write), written through
/// Persistence's one write path (``DataCenter/writeNow(_:)``: an immediate transaction on the
/// serialized writer, WAL, `synchronous = NORMAL`, so a commit survives the process being killed).
///
/// Every change an answer reports is committed before the answer: an `enqueue` that answered is
/// on disk, and a delivery is recorded before the next item of its queue is sent. The sender's
/// bookkeeping costs one transaction per item: recording one item's outcome and marking the next
/// one `sending` commit together (``advance(_:finishing:)``).
final class OfflineQueueStore: Sendable {
    static let fileName = ".network-queue.sqlite"
    /// Delivered items whose answers stay readable to `queueWatch`; older ones are deleted as new
    /// ones are delivered. Failed items stay until retried or cancelled.
    static let keptDelivered: Int64 = 10_000

    let center: DataCenter

    init(dataDirectory: String) throws(BridgeError) {
        do {
            center = try DataCenter(name: "network-queue", path: dataDirectory + "/" + Self.fileName)
            try center.writeNow { session in
                try session.db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS queue_items (
                      id INTEGER PRIMARY KEY AUTOINCREMENT, queue TEXT NOT NULL, request TEXT NOT NULL, body BLOB,
                      idempotencyKey TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
                      lastError TEXT, nextAttemptAt INTEGER, finished INTEGER, answer TEXT, answerBody BLOB,
                      enqueuedAt INTEGER NOT NULL, finishedAt INTEGER);
                    CREATE INDEX IF NOT EXISTS queue_items_line ON queue_items(queue, id) WHERE state IN ('pending', 'sending');
                    CREATE INDEX IF NOT EXISTS queue_items_state ON queue_items(queue, state);
                    CREATE UNIQUE INDEX IF NOT EXISTS queue_items_finished ON queue_items(finished) WHERE finished IS NOT NULL;
                    CREATE TABLE IF NOT EXISTS queue_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), finished INTEGER NOT NULL);
                    """)
            }
        } catch {
            throw Self.bridged(error)
        }
    }

    private static let columns = "id, queue, request, body, idempotencyKey, state, attempts, lastError, nextAttemptAt, finished, answer, answerBody"

    /// Stores a new item at the end of `queue` and answers its id and place in line (1: the head),
    /// committed. Refused when `limit` items are waiting (pending, sending or failed) in all queues.
    func enqueue(queue: String, request: QueuedRequest, idempotencyKey: String, limit: Int) throws(BridgeError) -> (id: Int64, position: Int) {
        let text = JSONWriter.write(.object(request.stored))
        let outcome: Result<(Int64, Int), BridgeError> = try run { db in
            let waiting = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM queue_items WHERE state != 'delivered'")) ?? 0
            guard waiting < limit else {
                return .failure(BridgeError(.tooMany, "network.enqueue: \(waiting) requests are in the offline queue, the app's quota (app.json quotas.queuedRequests: \(limit)); wait for some to be delivered (queueWatch) or cancel failed ones (queueCancel)",
                                            details: ["limit": .number(Double(limit)), "quota": "queuedRequests"]))
            }
            let ahead = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM queue_items WHERE queue = ? AND state IN ('pending', 'sending')"),
                                         arguments: [queue]) ?? 0
            try db.cachedStatement(sql: "INSERT INTO queue_items (queue, request, body, idempotencyKey, state, enqueuedAt) VALUES (?, ?, ?, ?, 'pending', ?)")
                .execute(arguments: [queue, text, request.body.map { Data($0) }, idempotencyKey, Self.nowMs()])
            return .success((db.lastInsertedRowID, ahead + 1))
        }
        return try outcome.get()
    }

    /// Items a crash left `sending` go back to `pending`, keeping their place; answers how many.
    func resumeInterrupted() throws(BridgeError) -> Int {
        try run { db in
            try db.execute(sql: "UPDATE queue_items SET state = 'pending' WHERE state = 'sending'")
            return db.changesCount
        }
    }

    /// The queues that have items to send.
    func queuesWithWork() throws(BridgeError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT queue FROM queue_items WHERE state IN ('pending', 'sending')") }
    }

    /// The outcome of sending an item.
    enum Outcome: Sendable {
        case delivered(QueuedItem.Answer)
        case failed(QueuedItem.Answer?, error: String?)
    }

    /// In one transaction: records `finishing`'s outcome (when given), then takes the head of
    /// `queue` (its first pending or sending item), marks it `sending` with one more attempt and
    /// returns it; nil when the queue has nothing to send.
    func advance(_ queue: String, finishing: (id: Int64, outcome: Outcome)?) throws(BridgeError) -> (head: QueuedItem?, finished: Int64?) {
        try run { db in
            var finished: Int64?
            if let (id, outcome) = finishing {
                switch outcome {
                case .delivered(let answer):
                    finished = try Self.finish(id, state: .delivered, answer: answer, error: nil, db: db)
                    // Old deliveries go as new ones come: at most keptDelivered stay for queueWatch.
                    try db.cachedStatement(sql: "DELETE FROM queue_items WHERE state = 'delivered' AND finished <= ?")
                        .execute(arguments: [finished! - Self.keptDelivered])
                case .failed(let answer, let error):
                    finished = try Self.finish(id, state: .failed, answer: answer, error: error, db: db)
                }
            }
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM queue_items WHERE queue = ? AND state IN ('pending', 'sending') ORDER BY id LIMIT 1"),
                                             arguments: [queue]) else { return (nil, finished) }
            var head = Self.item(row)
            head.state = .sending
            head.attempts += 1
            try db.cachedStatement(sql: "UPDATE queue_items SET state = 'sending', attempts = ? WHERE id = ?").execute(arguments: [head.attempts, head.id])
            return (head, finished)
        }
    }

    /// Marks `id` (if it is still being sent) finished, with the next finished seq; answers the seq.
    private static func finish(_ id: Int64, state: QueuedItem.State, answer: QueuedItem.Answer?, error: String?, db: Database) throws -> Int64? {
        let seq = try lastFinished(db) + 1
        var answerText: String?
        if let answer {
            var headers = JSONObject()
            let pairs: [JSONValue] = answer.headers.map { .array([.string($0.name), .string($0.value)]) }
            headers["headers"] = .array(pairs)
            headers["status"] = .number(Double(answer.status))
            headers["url"] = .string(answer.url)
            answerText = JSONWriter.write(.object(headers))
        }
        try db.cachedStatement(sql: """
            UPDATE queue_items SET state = ?, finished = ?, answer = ?, answerBody = ?, lastError = ?, nextAttemptAt = NULL, finishedAt = ?
            WHERE id = ? AND state = 'sending'
            """).execute(arguments: [state.rawValue, seq, answerText, answer.map { Data($0.body) }, error, nowMs(), id])
        guard db.changesCount == 1 else { return nil }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO queue_cursor (id, finished) VALUES (1, ?)").execute(arguments: [seq])
        return seq
    }

    /// The last finished seq handed out, kept apart from the items so that it never goes back
    /// when the items holding it are deleted (cancelled, or delivered long ago).
    private static func lastFinished(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT finished FROM queue_cursor WHERE id = 1")) ?? 0
    }

    /// Counts per queue and state, and the first `limit` items of `queue` (or of every queue)
    /// that are not delivered (pending, sending, failed), in queue order.
    func status(queue: String?, limit: Int) throws(BridgeError) -> (counts: [String: [QueuedItem.State: Int]], items: [QueuedItem]) {
        try read { db in
            var counts: [String: [QueuedItem.State: Int]] = [:]
            let countSQL = "SELECT queue, state, count(*) FROM queue_items" + (queue == nil ? "" : " WHERE queue = ?") + " GROUP BY queue, state"
            for row in try Row.fetchAll(db, sql: countSQL, arguments: queue.map { [$0] } ?? []) {
                let name: String = row[0]
                if let state = QueuedItem.State(rawValue: row[1]) { counts[name, default: [:]][state] = row[2] }
            }
            let filter = queue == nil ? "" : "queue = ? AND "
            let items = try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM queue_items WHERE \(filter)state != 'delivered' ORDER BY queue, id LIMIT ?",
                                         arguments: queue.map { [$0, limit] } ?? [limit]).map(Self.item)
            return (counts, items)
        }
    }

    /// Records a transient failure of item `id`: it stays at its queue's head, pending, until `at`.
    func postpone(_ id: Int64, error: String, at: Int64) throws(BridgeError) {
        try run { db in
            try db.cachedStatement(sql: "UPDATE queue_items SET state = 'pending', lastError = ?, nextAttemptAt = ? WHERE id = ? AND state = 'sending'")
                .execute(arguments: [error, at, id])
        }
    }

    /// Finished items after the finished seq `after`, oldest first, at most `limit`; and the last
    /// finished seq handed out.
    func finished(after: Int64, queue: String?, limit: Int) throws(BridgeError) -> (items: [QueuedItem], last: Int64) {
        try read { db in
            let filter = queue == nil ? "" : " AND queue = ?"
            var arguments: StatementArguments = [after]
            if let queue { arguments += [queue] }
            arguments += [limit]
            let items = try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM queue_items WHERE finished > ?\(filter) ORDER BY finished LIMIT ?",
                                         arguments: arguments).map(Self.item)
            return (items, try Self.lastFinished(db))
        }
    }

    /// Puts `queue`'s failed items (or the one with `id`) back in line at their place, with their
    /// attempts and answer cleared; answers their ids.
    func retry(queue: String, id: Int64?) throws(BridgeError) -> [Int64] {
        try run { db in
            let filter = id == nil ? "" : " AND id = ?"
            let arguments: StatementArguments = id.map { [queue, $0] } ?? [queue]
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM queue_items WHERE queue = ? AND state = 'failed'\(filter) ORDER BY id", arguments: arguments)
            try db.execute(sql: """
                UPDATE queue_items SET state = 'pending', attempts = 0, lastError = NULL, nextAttemptAt = NULL, finished = NULL,
                  answer = NULL, answerBody = NULL, finishedAt = NULL WHERE queue = ? AND state = 'failed'\(filter)
                """, arguments: arguments)
            return ids
        }
    }

    /// Deletes `queue`'s pending and failed items (or the one with `id`, if it is one), never one
    /// being sent; answers their ids.
    func cancel(queue: String, id: Int64?) throws(BridgeError) -> [Int64] {
        try run { db in
            let filter = id == nil ? "" : " AND id = ?"
            let arguments: StatementArguments = id.map { [queue, $0] } ?? [queue]
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM queue_items WHERE queue = ? AND state IN ('pending', 'failed')\(filter) ORDER BY id", arguments: arguments)
            try db.execute(sql: "DELETE FROM queue_items WHERE queue = ? AND state IN ('pending', 'failed')\(filter)", arguments: arguments)
            return ids
        }
    }

    /// The state of item `id` of `queue`, nil when there is none.
    func state(of id: Int64, queue: String) throws(BridgeError) -> QueuedItem.State? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT state FROM queue_items WHERE id = ? AND queue = ?", arguments: [id, queue]).flatMap(QueuedItem.State.init(rawValue:))
        }
    }

    private static func item(_ row: Row) -> QueuedItem {
        let stored = (try? JSONParser.parse(row["request"] as String))?.objectValue ?? [:]
        let body = (row["body"] as Data?).map { [UInt8]($0) }
        var answer: QueuedItem.Answer?
        if let text = row["answer"] as String?, let object = (try? JSONParser.parse(text))?.objectValue {
            let headers = (object["headers"]?.arrayValue ?? []).compactMap { pair -> (name: String, value: String)? in
                guard let name = pair[0]?.stringValue, let value = pair[1]?.stringValue else { return nil }
                return (name, value)
            }
            answer = QueuedItem.Answer(status: object["status"]?.intValue ?? 0, headers: headers,
                                       body: (row["answerBody"] as Data?).map { [UInt8]($0) } ?? [], url: object["url"]?.stringValue ?? "")
        }
        return QueuedItem(id: row["id"], queue: row["queue"], request: QueuedRequest(stored: stored, body: body),
                          idempotencyKey: row["idempotencyKey"], state: QueuedItem.State(rawValue: row["state"]) ?? .pending,
                          attempts: row["attempts"], lastError: row["lastError"], nextAttemptAt: row["nextAttemptAt"],
                          finished: row["finished"], answer: answer)
    }

    private func run<T>(_ body: (Database) throws -> T) throws(BridgeError) -> T {
        do { return try center.writeNow { session in try body(session.db) } } catch { throw Self.bridged(error) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(BridgeError) -> T {
        do { return try center.readNow { session in try body(session.db) } } catch { throw Self.bridged(error) }
    }

    private static func bridged(_ error: Persistence.PersistenceError) -> BridgeError {
        switch error {
        case .invalid(let path, let message): BridgeError.badParams(path, message)
        case .failed(let reason, let message, let details): BridgeError.failed(reason: reason, "the offline queue (\(fileName)): \(message)", details: details)
        }
    }

    static func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
