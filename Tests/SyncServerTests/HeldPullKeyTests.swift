import HostTesting
@testable import SyncServer
import Testing

/// A commit wakes only the held pulls that read one of the log keys it filed under: at 1,000
/// devices, waking every pull for every commit cost a thousand futile reads a write.
@Suite("held pulls woken by key")
struct HeldPullKeyTests {
    @Test("a wake for some keys resumes the pulls reading them and leaves the others waiting; a wake for any key resumes all")
    func wakesByKey() async throws {
        let held = HeldPulls()
        let deadline = ContinuousClock.now + .seconds(600)  // never reached: every pull here is woken
        let generation = held.generation
        let team = Task { await held.wait(after: generation, keys: ["s:team:t1", "u:alice"], until: deadline) }
        let other = Task { await held.wait(after: generation, keys: ["s:team:t2", "u:bob"], until: deadline) }
        let everything = Task { await held.wait(after: generation, keys: nil, until: deadline) }
        let waiting = try await eventually { held.count == 3 }
        #expect(waiting, "three pulls waiting, not \(held.count)")
        held.wake(keys: ["s:team:t1", "u:carol"])
        await team.value
        await everything.value
        #expect(held.count == 1)
        held.wake(keys: nil)
        await other.value
        #expect(held.count == 0)
    }
}
