import HostTesting
import SystemIO
import Testing

@Suite("WaitingBoard: tasks that wait for a state, answered by updates, deadlines and cancellation")
struct WaitingBoardTests {
    @Test("a wait whose condition holds already answers at once, and files nothing")
    func answersAtOnce() async {
        let board = WaitingBoard(5)
        let answer = await board.wait({ $0 > 2 ? $0 : nil }, otherwise: { _ in -1 })
        #expect(answer == 5)
        #expect(board.waiting == 0)
    }

    @Test("an update answers the waits it satisfies and leaves the others waiting")
    func updateAnswersWhatItSatisfies() async throws {
        let board = WaitingBoard(0)
        let low = Task { await board.wait({ $0 >= 1 ? "low \($0)" : nil }, otherwise: { _ in "none" }) }
        let high = Task { await board.wait({ $0 >= 3 ? "high \($0)" : nil }, otherwise: { _ in "none" }) }
        #expect(try await eventually { board.waiting == 2 })
        board.update { $0 = 1 }
        #expect(await low.value == "low 1")
        #expect(board.waiting == 1)
        board.update { $0 = 3 }
        #expect(await high.value == "high 3")
        #expect(board.waiting == 0)
    }

    @Test("conditions run in arrival order and may take what they wait for: turns are given first come, first served")
    func turnsInArrivalOrder() async throws {
        struct Turns { var busy = true; var order: [Int] = [] }
        let board = WaitingBoard(Turns())
        var waits: [Task<Bool, Never>] = []
        for number in 0..<5 {
            waits.append(Task {
                await board.wait({ turns in
                    guard !turns.busy else { return nil }
                    turns.busy = true
                    turns.order.append(number)
                    return true
                }, otherwise: { _ in false })
            })
            // Each is filed before the next starts, so arrival order is 0...4.
            #expect(try await eventually { board.waiting == number + 1 })
        }
        for wait in waits {
            board.update { $0.busy = false }   // one turn ends: exactly one waiter takes the next
            #expect(await wait.value)
        }
        #expect(board.read { $0.order } == [0, 1, 2, 3, 4])
    }

    @Test("a wait not satisfied by its deadline answers with what the state is then, on the board's clock")
    func deadlineOnTheBoardsClock() async throws {
        let clock = ManualClock()
        let board = WaitingBoard(0, clock: clock)
        let wait = Task { await board.wait(until: clock.now + .seconds(30), { $0 > 10 ? "ready" : nil }, otherwise: { "timed out at \($0)" }) }
        #expect(try await eventually { board.waiting == 1 && clock.sleepers == 1 })
        board.update { $0 = 4 }
        clock.advance(by: .seconds(29))
        #expect(board.waiting == 1, "29 s of 30: still waiting")
        clock.advance(by: .seconds(1))
        #expect(await wait.value == "timed out at 4")
        #expect(board.waiting == 0 && clock.sleepers == 0, "the timer ends with the wait")
    }

    @Test("a wait answered before its deadline leaves no timer behind")
    func answeredBeforeDeadline() async throws {
        let clock = ManualClock()
        let board = WaitingBoard(false, clock: clock)
        let wait = Task { await board.wait(until: clock.now + .seconds(30), { $0 ? "ready" : nil }, otherwise: { _ in "timed out" }) }
        #expect(try await eventually { board.waiting == 1 && clock.sleepers == 1 })
        board.update { $0 = true }
        #expect(await wait.value == "ready")
        #expect(try await eventually { clock.sleepers == 0 })
    }

    @Test("cancelling a waiting task answers it with `otherwise`, and a task cancelled before it waits does not wait")
    func cancellation() async throws {
        let board = WaitingBoard(1)
        let wait = Task { await board.wait({ $0 > 1 ? "ready" : nil }, otherwise: { "cancelled at \($0)" }) }
        #expect(try await eventually { board.waiting == 1 })
        wait.cancel()
        #expect(await wait.value == "cancelled at 1")
        #expect(board.waiting == 0)

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await board.wait({ $0 > 1 ? "ready" : nil }, otherwise: { _ in "cancelled" })
        }
        #expect(await early.value == "cancelled")
    }

    @Test("a manual clock's sleeper wakes when the clock passes its deadline, and its wall time moves with it")
    func manualClock() async throws {
        let clock = ManualClock()
        let wallBefore = clock.wallTime
        let started = clock.now
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(try await eventually { clock.sleepers == 1 })
        clock.advance(by: .seconds(59))
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(2))
        try await sleeper.value
        #expect(clock.now - started == .seconds(61))
        #expect(clock.wallTime - wallBefore == .seconds(61))
    }
}
