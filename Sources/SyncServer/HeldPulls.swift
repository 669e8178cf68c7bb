import SystemIO

/// Pulls held open (`waitMs`) until the log may have grown past what they read: each waits for
/// the next ``wake(keys:)`` for its keys after the generation it read at, or its deadline, or the
/// server's shutdown, whichever is first. A waiting pull holds no database connection; on waking it reads
/// the store again through the normal pull path, so a commit in scopes it may not see just sends
/// it back to wait.
///
/// ```swift
/// let generation = held.generation      // before reading the store
/// let page = try await store.pull(...)  // empty
/// await held.wait(after: generation, until: deadline)
/// ```
final class HeldPulls: Sendable {
    struct Wakes: Sendable {
        /// Moves on at every wake: a pull that read the store at generation g missed nothing
        /// committed before the wake that ended g.
        var generation = 0
        var closed = false
        /// The generation of each log key's latest wake.
        var latest: [String: Int] = [:]
        /// The latest wake of the whole log (keys unknown).
        var anywhere = 0
        /// Wakes up to this generation are forgotten (``latest`` is pruned): a pull that read
        /// before it is sent to read again.
        var forgottenThrough = 0

        /// Whether a wake after `generation` concerned `keys` (nil: any), or may have: true when
        /// one named any of them or the whole log, or when the wakes since are forgotten.
        /// Costs one lookup per key, however many wakes there were.
        func woke(after generation: Int, keys: Set<String>?) -> Bool {
            guard self.generation > generation else { return false }
            guard let keys, anywhere <= generation, generation >= forgottenThrough else { return true }
            return keys.contains { (latest[$0] ?? 0) > generation }
        }

        mutating func wake(keys: Set<String>?) {
            generation += 1
            guard let keys else {
                anywhere = generation
                return
            }
            for key in keys { latest[key] = generation }
            // Keys are the log's scopes: many on a big server. Those not woken lately are let go.
            if latest.count > HeldPulls.rememberedKeys {
                forgottenThrough = generation - HeldPulls.recentWakes
                latest = latest.filter { $0.value > forgottenThrough }
            }
        }
    }

    /// Past this many keys, the wakes older than ``recentWakes`` are forgotten.
    static let rememberedKeys = 4096
    static let recentWakes = 256

    private let wakes: WaitingBoard<Wakes>

    /// Deadlines run on `clock`.
    init(clock: any HostClock = SystemClock()) {
        wakes = WaitingBoard(Wakes(), clock: clock)
    }

    var generation: Int { wakes.read { $0.generation } }

    /// Pulls waiting right now (for the server's metrics).
    var count: Int { wakes.waiting }

    /// Whether the server is shutting down: a pull asked for now answers at once.
    var isClosed: Bool { wakes.read { $0.closed } }

    /// Something may have committed under `keys` (log keys; nil: anywhere): the waiting pulls
    /// whose devices read any of them read the store again; the others go on waiting. Waking only
    /// those matters at scale: with a thousand devices holding pulls, a commit that woke them all
    /// cost a thousand futile reads (BENCHMARKS.md, "1,000 devices").
    func wake(keys: Set<String>? = nil) {
        // Only the pulls filed under one of the keys are looked at (all of them for nil).
        wakes.update(touching: keys) { $0.wake(keys: keys) }
    }

    /// The server is stopping: every waiting pull answers with what it has (an empty page), and
    /// later ones do not wait.
    func close() {
        wakes.update { $0.closed = true }
    }

    /// Returns at the first wake after `generation` for a key in `keys` (the device's log keys;
    /// nil: any), at once when one already happened; at `deadline`, at close, or when the calling
    /// task is cancelled. A wake for other keys while the pull read does not send it back to read
    /// again: with a thousand devices, a read slower than the time between commits (the store's,
    /// under load) would otherwise never get to wait.
    func wait(after generation: Int, keys: [String]? = nil, until deadline: ContinuousClock.Instant) async {
        let keys = keys.map(Set.init)
        await wakes.wait(until: deadline, on: keys, { wakes in wakes.closed || wakes.woke(after: generation, keys: keys) ? () : nil },
                         otherwise: { _ in })
    }
}
