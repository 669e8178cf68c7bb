@testable import Engine
import Testing

/// When the engine collects the heap in full to give its empty blocks back: RSS more than 32 MB
/// over its floor, at most every 30 s, the floor retaken once the pages are back.
@Suite("heap trim")
struct HeapTrimTests {
    static let megabyte = 1_048_576
    let start = ContinuousClock.now

    func at(_ seconds: Int) -> ContinuousClock.Instant { start.advanced(by: .seconds(seconds)) }

    /// One check: RSS at `megabytes`, `seconds` after the start.
    func step(_ trim: inout HeapTrim, _ megabytes: Int, _ seconds: Int) -> Bool {
        trim.shouldTrim(resident: megabytes * Self.megabyte, now: at(seconds))
    }

    @Test("growth under 32 MB over the floor never trims; past it, a trim, then none within 30 s")
    func threshold() {
        var trim = HeapTrim(resident: 100 * Self.megabyte, now: start)
        #expect(!step(&trim, 120, 40))
        #expect(!step(&trim, 131, 50))
        #expect(step(&trim, 140, 60))
        // The check after a trim takes the floor (the pages given back by then).
        #expect(!step(&trim, 104, 70))
        #expect(!step(&trim, 150, 80), "within 30 s of the last trim")
        #expect(step(&trim, 150, 90))
        #expect(trim.trims == 2)
    }

    @Test("the first 30 s after start never trim")
    func spacingFromStart() {
        var trim = HeapTrim(resident: 50 * Self.megabyte, now: start)
        #expect(!step(&trim, 500, 10))
        #expect(step(&trim, 500, 30))
    }

    @Test("a live heap that really grew raises the floor: no trim until it grows 32 MB more")
    func liveGrowth() {
        var trim = HeapTrim(resident: 100 * Self.megabyte, now: start)
        #expect(step(&trim, 400, 30))
        // The collection found the 300 MB alive: RSS stays.
        #expect(!step(&trim, 400, 40))
        #expect(!step(&trim, 420, 80))
        #expect(step(&trim, 440, 90))
    }
}
