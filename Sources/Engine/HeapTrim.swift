import SystemIO

/// Gives back the JavaScript heap's empty blocks when the process's memory has grown well past
/// what the heap needs.
///
/// JavaScriptCore's collector grows the heap's capacity when the app allocates faster than its
/// concurrent marking keeps up (a burst, or its helper threads starved of CPU by a busy machine),
/// and its eden and full collections then reclaim the objects but keep the blocks: in the hour's
/// soak the live heap stayed at 2-9 MB while its capacity stepped from 34 to 108 MB and never came
/// back, RSS with it (BENCHMARKS.md, "The hour's soak"). A synchronous full collection
/// (`JSSynchronousGarbageCollectForDebugging`, the one exported way to ask for one now) sweeps
/// and frees the empty blocks, and the allocator returns their pages within a second or two: a
/// 362 MB capacity went to 0.5 MB, RSS from 507 to 35 MB.
///
/// Checked between tasks every ``interval`` (one read of `/proc/self/statm`): when RSS stands more
/// than ``growth`` above its floor (the lowest seen since the last trim, taken one check after it,
/// once the pages are back), and ``spacing`` has passed since the last trim, the heap is collected
/// in full. An app whose live heap really grew raises its own floor, so it is collected again only
/// after as much growth again. The pause is a full collection's: milliseconds for a small heap.
struct HeapTrim {
    static let interval: Duration = .seconds(10)
    static let spacing: Duration = .seconds(30)
    static let growth = 32 * 1_048_576

    private var floor: Int
    private var lastTrim: ContinuousClock.Instant
    /// Set by a trim: the next check takes its reading as the new floor.
    private var settling = false
    private(set) var trims = 0

    init(resident: Int, now: ContinuousClock.Instant) {
        floor = resident
        lastTrim = now
    }

    /// Whether to collect now, given the process's resident bytes at `now`.
    mutating func shouldTrim(resident: Int, now: ContinuousClock.Instant) -> Bool {
        if settling {
            floor = resident
            settling = false
            return false
        }
        floor = min(floor, resident)
        guard resident - floor > Self.growth, now - lastTrim >= Self.spacing else { return false }
        lastTrim = now
        settling = true
        trims += 1
        return true
    }
}
