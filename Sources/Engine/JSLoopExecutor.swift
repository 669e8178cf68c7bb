/// Runs Swift tasks on an engine's JS thread, between the loop's other tasks: the executor a
/// bridge call that only awaits prefers (``BridgeService``'s `.nonBlocking` actions), so that the
/// call starts and finishes on the JS thread without a hand-off to a worker and back.
///
/// ```swift
/// Task(executorPreference: engine.executor) {
///     let answer = try await transfer()   // suspends; the JS thread runs other work meanwhile
///     // back on the JS thread: settle the call here
/// }
/// ```
///
/// A job must never block: while it runs, no JS runs. Once the loop has ended, jobs run on the
/// global concurrent executor instead, so a task never hangs; code after an `await` checks
/// ``JSEngine/isLoopThread`` before it touches JS-thread state.
public final class JSLoopExecutor: TaskExecutor, Sendable {
    private unowned let engine: JSEngine

    init(engine: JSEngine) {
        self.engine = engine
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = engine.post { [self] _ in job.runSynchronously(on: asUnownedTaskExecutor()) }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
