import Logging
import SyncProtocol
import Synchronization
import SystemIO

/// The op log's newest entries, in memory, so that a held pull is answered without the store.
///
/// With a thousand devices long-polling, every commit used to send the pulls it woke to the store
/// one by one (a read, then a cursor update), and those reads, not the writes, set the latency
/// (BENCHMARKS.md, "1,000 devices"). Now the server reads a commit's entries once, here, and every
/// pull it wakes takes its page from memory: the same entries, filtered by the device's log keys
/// and shown as its scopes see them (``LogEntry/operation(for:)``), as the store's own pull does.
///
/// What it holds is exact: every entry of the log with seq in (`coveredAfter`, `head`], read in
/// one snapshot each time. That is enough because seqs are given and committed in order (under the
/// store's write lock), so a snapshot's entries after `head` are all there are up to its last seq.
///
/// Its order with ``HeldPulls`` is what keeps a pull from missing an entry: news of a commit
/// (``heard(_:)``) first takes the entries (carried by the news, or read), then wakes the pulls; a pull takes the generation
/// before reading from memory. A pull that read memory before the entries arrived is woken after
/// they did. Memory answers only held pulls (`waitMs` > 0), whose answer may come a moment
/// later anyway: a pull without `waitMs` reads the store, so that a device sees at once what was
/// acknowledged a moment ago on another instance, whose news may not have arrived here yet.
///
/// ```swift
/// recent.heard(CommitNews(keys: ["s:team-1"]))  // from CommitWatcher: take the new entries, then wake
/// let page = try recent.page(for: device, after: cursor, limit: 1000)   // nil: ask the store
/// ```
final class RecentLog: Sendable {
    private struct State {
        /// Ascending by seq: exactly the log's entries in (coveredAfter, head].
        var entries: [LogEntry] = []
        var coveredAfter = 0
        var head = 0
        var compactedThrough = 0
        /// False until the first read: nothing is covered yet.
        var loaded = false
        /// The last read failed: the store answers until one succeeds.
        var failed = false
        /// News heard so far; a read that started after the last one leaves memory current.
        var news = 0
        var reading = false
        /// The keys of the news the next read brings (nil: anywhere), whose pulls it wakes.
        var wakeKeys: Set<String>? = []
        /// When a held pull last asked for a page; nil: none yet.
        var askedAt: ContinuousClock.Instant?
        /// The read under way, which ``stop()`` waits for; after it, no read starts.
        var reader: Task<Void, Never>?
        var stopped = false
    }

    /// How long memory is kept current after a held pull last asked for a page, while none is
    /// waiting: held pulls come back at once after each answer, so a server whose devices hold
    /// pulls is never this long without one asking.
    static let idleAfter = Duration.seconds(10)

    private let state = Mutex(State())
    private let store: any SyncStore
    private let held: HeldPulls
    /// The most entries kept: older ones are dropped, and pulls from before them read the store.
    let capacity: Int
    /// Entries read at a time.
    static let pageSize = 1_000
    private let logger: Logger
    private let metrics: SyncMetrics?
    /// What ``idleAfter`` is measured on.
    private let clock: any HostClock

    init(store: any SyncStore, held: HeldPulls, capacity: Int = 10_000, metrics: SyncMetrics? = nil, clock: any HostClock = SystemClock(),
         logger: Logger) {
        self.clock = clock
        self.store = store
        self.held = held
        self.capacity = capacity
        self.metrics = metrics
        self.logger = logger
    }

    /// The entries held now (for the metrics and tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// Whether news is being taken in: set at once by ``heard(_:)`` when it must read (for tests).
    var isReading: Bool { state.withLock { $0.reading } }

    /// The log has grown (``CommitNews``): takes what is new, then wakes the held pulls reading
    /// the news's keys (nil: every one). Entries the news carries are appended when they follow
    /// what memory holds and no read is under way; otherwise it reads. Never blocks: one read runs
    /// at a time, and news heard meanwhile makes it read again.
    func heard(_ news: CommitNews) {
        if let carried = news.carried {
            let appended = state.withLock { state -> Bool in
                guard !state.reading, state.loaded, !state.failed, carried.after == state.head else { return false }
                Self.append(carried.entries, through: carried.after + carried.entries.count, capacity: capacity, to: &state)
                return true
            }
            if appended {
                metrics?.commitFromNews()
                held.wake(keys: news.keys)
                return
            }
        }
        heard(keys: news.keys)
    }

    private static func append(_ entries: [LogEntry], through head: Int, capacity: Int, to state: inout State) {
        state.entries += entries
        state.head = head
        let excess = state.entries.count - capacity
        if excess > 0 {
            state.coveredAfter = state.entries[excess - 1].seq
            state.entries.removeFirst(excess)
        }
    }

    private func heard(keys: Set<String>?) {
        state.withLock { state in
            state.news += 1
            if let keys, state.wakeKeys != nil { state.wakeKeys!.formUnion(keys) } else { state.wakeKeys = nil }
            guard !state.reading, !state.stopped else { return }
            state.reading = true
            // Kept, so that the server's shutdown waits for it (``stop()``): no read outlives the
            // service group, and none touches a store being closed.
            state.reader = Task { await readUntilCurrent() }
        }
    }

    /// The server is stopping (``CommitWatcher``, before the store closes): no read starts from
    /// now on, and the one under way is cancelled and waited for.
    func stop() async {
        let reader = state.withLock { state in
            state.stopped = true
            return state.reader
        }
        reader?.cancel()
        await reader?.value
    }

    private func readUntilCurrent() async {
        while true {
            let (news, keys, loaded, head) = state.withLock { state in
                defer { state.wakeKeys = [] }
                return (state.news, state.wakeKeys, state.loaded, state.head)
            }
            do {
                if held.count == 0, state.withLock({ [clock] in $0.askedAt.map { clock.now - $0 > Self.idleAfter } ?? true }) {
                    // No held pull for a while (a server whose devices sync without waitMs):
                    // reading every commit would be wasted. Memory is dropped instead, and pulls
                    // read the store until news comes after one asked again. Whether one waits at
                    // this very moment is not enough: when all were reading at once, that dropped
                    // memory, sent every pull to the store, kept them all reading there (each read
                    // slower than the time between commits), so none waited at the next read either,
                    // and one instance of two served 56,000 pulls from PostgreSQL in 30 s
                    // (BENCHMARKS.md, "the storm").
                    state.withLock { state in
                        state.entries = []
                        state.loaded = false
                    }
                } else {
                    try await read(after: loaded ? head : nil)
                }
            } catch {
                state.withLock { $0.failed = true }
                if !held.isClosed { logger.warning("reading the op log's new entries failed, held pulls read the store meanwhile: \(PostgresSyncStore.describe(error))") }
            }
            held.wake(keys: keys)
            let current = state.withLock { state -> Bool in
                guard state.news == news || state.stopped else { return false }
                state.reading = false
                state.reader = nil
                return true
            }
            if current { return }
        }
    }

    /// Reads the entries after `after` page by page; nil: a first read, which starts a page
    /// before the log's last seq, so that pulls a little behind (those held when the first news
    /// comes) are answered from memory too; older cursors are for the store to answer.
    private func read(after: Int?) async throws {
        var after = after
        if after == nil {
            // Entries at or below the compaction mark are gone, which is no gap: memory never
            // answers a cursor below the mark.
            let start = max(0, try await store.figures().lastSeq - Self.pageSize)
            // Loaded once the first page is in: a pull asking meanwhile is for the store.
            state.withLock { state in
                state.entries = []
                (state.coveredAfter, state.head, state.loaded) = (start, start, false)
            }
            after = start
        }
        guard var next = after else { return }
        while true {
            let tail = try await store.logTail(after: next, limit: Self.pageSize)
            next = tail.more ? tail.entries.last?.seq ?? next : max(next, tail.lastSeq)
            state.withLock { state in
                // Another read may not overlap this one (one at a time), nor an append from news
                // (only while none runs), so the tail follows head.
                Self.append(tail.entries, through: next, capacity: capacity, to: &state)
                state.compactedThrough = tail.compactedThrough
                state.failed = false
                state.loaded = true
            }
            if !tail.more { return }
        }
    }

    /// The page a pull from `after` gets (at most `limit` ops `device` may see, as
    /// ``SyncStore/pull(for:after:limit:now:)`` pages them), from memory; nil when memory cannot
    /// answer for the store: nothing read yet, the last read failed, `after` before what is held
    /// or before the compaction mark (the store refuses that one). Asked by held pulls only, each
    /// asking keeps memory current (``idleAfter``).
    func page(for device: DeviceIdentity, after: Int, limit: Int) throws -> PullPage? {
        let keys = device.logKeys.map(Set.init)
        let now = clock.now
        let found: [LogEntry]? = state.withLock { state in
            state.askedAt = now
            guard state.loaded, !state.failed, after >= state.coveredAfter, after >= state.compactedThrough else { return nil }
            var found: [LogEntry] = []
            var index = Self.firstIndex(after: after, in: state.entries)
            while index < state.entries.count, found.count <= limit {
                if state.entries[index].isRead(byKeys: keys) { found.append(state.entries[index]) }
                index += 1
            }
            return found
        }
        guard let found else { return nil }
        return try PullPage(found: found, after: after, limit: limit, for: device)
    }

    /// The index of the first entry with seq > `after` (binary search: entries ascend).
    private static func firstIndex(after: Int, in entries: [LogEntry]) -> Int {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= after { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
