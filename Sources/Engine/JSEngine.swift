// The Engine module: one JavaScriptCore context on one dedicated JS thread, with the event loop
// (tasks, timers, completions posted from other threads), console and CommonJS modules.
// It must never let a JSValueRef leave the JS thread, and never run JS except on it.
import CJavaScriptCore
import Glibc
import JSON
import ScriptSources
import Synchronization
import SystemIO

/// Options fixed when an engine starts.
public struct EngineOptions: Sendable {
    /// A synchronous run of JS (one task) that uses more than this many seconds of the JS thread's CPU
    /// time is stopped with an error (JavaScriptCore's watchdog counts CPU time, not wall time).
    public var timeLimitSeconds: Double?
    /// How far the process's resident memory may grow past what it was when the engine started
    /// before the run is stopped with a `MemoryLimitError` (``MemoryGuard``); nil for no limit.
    public var memoryLimitBytes: Int?
    /// Stack of the JS thread; deep recursion in JS needs room.
    public var stackSize: Int = 16 * 1024 * 1024
    /// Where `console` writes (fd 1 or 2); stdout and stderr when nil. Tests capture it.
    public var output: (@Sendable (_ fd: Int32, _ text: String) -> Void)?
    /// When set, an uncaught exception (in a timer, say), an unhandled rejection or a run stopped
    /// by the time limit is handed to it on the JS thread and the loop goes on, as in node's REPL;
    /// nil ends the run at the first one (``fail(_:)``). The memory limit always ends the run.
    public var uncaught: (@Sendable (ScriptError) -> Void)?
    /// Installs the module registry's `reload` (`hybrid run --watch` only): edited files swapped
    /// in place without a signature. Off, the function does not exist in the context at all.
    public var hotReload = false
    /// `hybrid run --inspect`: the context is served to a debugger through this hub
    /// (``RemoteInspection``). Inspected engines of one process run one after another (`hybrid
    /// test --inspect`'s files), never two at once, and all use the first one's hub.
    public var inspection: InspectionSettings?

    public init(timeLimitSeconds: Double? = nil, memoryLimitBytes: Int? = nil, output: (@Sendable (_ fd: Int32, _ text: String) -> Void)? = nil,
                uncaught: (@Sendable (ScriptError) -> Void)? = nil, hotReload: Bool = false) {
        self.timeLimitSeconds = timeLimitSeconds
        self.memoryLimitBytes = memoryLimitBytes
        self.output = output
        self.uncaught = uncaught
        self.hotReload = hotReload
    }
}

/// How a run ended.
public enum EngineOutcome: Sendable, Equatable {
    /// Nothing left to do: no tasks, timers or pending calls.
    case idle
    /// An uncaught exception, an unhandled rejection or the time limit.
    case failed(ScriptError)
}

/// A JavaScriptCore context and its event loop, on a thread of its own. The thread keeps the
/// engine alive until ``shutdown()``: call it when done (``AppSession`` does).
///
/// ```swift
/// let engine = JSEngine()
/// try await engine.perform { context in try context.evaluate("setTimeout(() => {}, 10)", url: "x.js") }
/// let outcome = await engine.idle()   // .idle once the timer has fired
/// engine.shutdown()
/// ```
///
/// Work reaches the JS thread only as tasks: ``post(_:)`` from any thread, timers, and the
/// completions services post when a call finishes. After each task JavaScriptCore has drained the
/// microtask queue (it does so when the outermost API call returns).
// @unchecked: the fields under "Shared with other threads" are read and written only under `signal`; `loopThread` is atomic; `executor` is set in `init` before the thread starts; every field under "JS thread only" is touched on the JS thread only.
public final class JSEngine: @unchecked Sendable {
    public let options: EngineOptions
    /// Source maps of the modules compiled from TypeScript or ES modules, by the URL each was
    /// compiled under; every error this engine reports is mapped through them. Its context's
    /// ``ScriptContext/sourceMaps``; safe to use from any thread.
    public let sourceMaps = SourceMapRegistry()

    // Shared with other threads, under `signal`.
    private let signal = LoopSignal()
    private var posted: [(ScriptContext) -> Void] = []
    private var stopRequested = false
    /// False once the loop has ended: posted work is refused.
    private var accepting = true
    private var isIdle = false
    private var finished = false
    /// Set by ``endRun()`` on the JS thread: the loop reports idle with work still pending.
    private var endRequested = false
    private var outcome: EngineOutcome?
    private var idleWaiters: [(EngineOutcome) -> Void] = []
    private var thread: pthread_t?
    /// The JS thread's id, set once when the loop starts.
    private let loopThread = Atomic<UInt>(0)
    /// Runs Swift tasks on the JS thread (``JSLoopExecutor``).
    /// Set in `init`, before the thread starts; never changed after.
    public private(set) var executor: JSLoopExecutor!

    // JS thread only.
    private var group: JSContextGroupRef!
    private var context: ScriptContext!
    private var timers = TimerQueue()
    private var timerCallbacks: [Int: TimerCallback] = [:]
    /// Native timers still scheduled; they alone do not keep the loop alive.
    private var nativeTimerIDs: Set<Int> = []
    /// Script timers unref'd (`timeout.unref()`): nor do they, as in node.
    private var unrefTimerIDs: Set<Int> = []
    private var nextTimerID = 1
    private var holds = 0
    private var shutdownHooks: [(ScriptContext) -> Void] = []
    private var pendingFailure: ScriptError?
    private var memory: MemoryGuard?
    /// When to collect the heap in full to give its empty blocks back (JS thread only).
    private var heapTrim = HeapTrim(resident: 0, now: .now)

    struct TimerCallback {
        enum Body {
            case script(JSObjectRef, [JSValueRef])
            case native(() -> Void)
        }
        let body: Body
        let interval: UInt64?
        /// Nanoseconds from (re)scheduling to firing, for `refresh()`.
        let delay: UInt64
        /// The sequence of its entry in `timers`: an older entry (left by a refresh) is passed over.
        var sequence: UInt64 = 0
    }

    public init(options: EngineOptions = EngineOptions()) {
        self.options = options
        executor = JSLoopExecutor(engine: self)
        startThread()
    }

    deinit {
        shutdown()
    }

    // MARK: - Posting work

    /// Runs `task` on the JS thread as a macrotask. Safe from any thread.
    @discardableResult
    public func post(_ task: @escaping @Sendable (ScriptContext) -> Void) -> Bool {
        let accepted = signal.withLock {
            guard accepting else { return false }
            posted.append(task)
            isIdle = false
            return true
        }
        if accepted { signal.broadcast() }
        return accepted
    }

    /// Runs `body` on the JS thread and returns its result.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (ScriptContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = post { context in
                continuation.resume(with: Result { try body(context) })
            }
            if !accepted { continuation.resume(throwing: EngineStoppedError()) }
        }
    }

    /// Waits until the loop is idle or has failed.
    public func idle() async -> EngineOutcome {
        await withCheckedContinuation { continuation in
            addIdleWaiter { continuation.resume(returning: $0) }
        }
    }

    /// Blocks the calling thread until the loop is idle or has failed (for the command line).
    public func waitUntilIdle() -> EngineOutcome {
        let done = LoopSignal()
        nonisolated(unsafe) var result: EngineOutcome?
        addIdleWaiter { outcome in
            done.withLock { result = outcome }
            done.broadcast()
        }
        done.lock()
        while result == nil { done.wait(until: nil) }
        done.unlock()
        return result!
    }

    private func addIdleWaiter(_ waiter: @escaping (EngineOutcome) -> Void) {
        signal.lock()
        if let outcome, finished || outcome != .idle {
            signal.unlock()
            waiter(outcome)
            return
        }
        idleWaiters.append(waiter)
        // The loop may already sit idle: wake it so it reports.
        isIdle = false
        signal.unlock()
        signal.broadcast()
    }

    /// Stops the loop: shutdown hooks run on the JS thread (the bridge rejects pending calls with
    /// `E_SHUTDOWN` there), then the thread ends. Idempotent.
    public func shutdown() {
        let thread: pthread_t? = signal.withLock {
            stopRequested = true
            let thread = self.thread
            self.thread = nil
            return thread
        }
        signal.broadcast()
        if let thread, pthread_equal(thread, pthread_self()) == 0 {
            pthread_join(thread, nil)
        }
    }

    /// Whether the caller runs on this engine's JS thread.
    public var isLoopThread: Bool { loopThread.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Stops a debug build when called off the JS thread, as SwiftNIO's `assertInEventLoop` does:
    /// state that only the JS thread may touch (the bridge's pending calls, the patch registry)
    /// checks it at each entry. Compiled out of release builds.
    @inlinable
    public func assertOnLoopThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(isLoopThread, "JSEngine: called off the JS thread", file: file, line: line)
    }

    // MARK: - JS thread API (call only from the JS thread)

    /// Keeps the loop alive while native work is outstanding (a pending bridge call).
    public func hold() {
        assertOnLoopThread()
        holds += 1
    }
    public func release() {
        assertOnLoopThread()
        holds -= 1
    }

    /// Ends the run as though the loop had gone idle, with timers, pending calls and
    /// subscriptions still open: no timer fires after it, waiters hear ``EngineOutcome/idle``, and
    /// ``shutdown()`` drops what is left (the bridge rejects pending calls with `E_SHUTDOWN`). For
    /// a harness whose verdict is in while the code it ran left work behind: a test that timed
    /// out still awaits, its subscriptions still open.
    public func endRun() {
        assertOnLoopThread()
        endRequested = true
    }

    /// Runs when the engine shuts down, on the JS thread, before the context goes away.
    public func onShutdown(_ hook: @escaping (ScriptContext) -> Void) {
        assertOnLoopThread()
        shutdownHooks.append(hook)
    }

    /// Ends the run with `error`, as an uncaught exception does: no further task runs (unless
    /// ``EngineOptions/uncaught`` takes it).
    public func fail(_ error: ScriptError) {
        assertOnLoopThread()
        var error = error
        if error.isTimeLimit, let memory, let grown = memory.exceeded {
            // The watchdog stopped the run for the memory guard, not for time.
            error = memory.error(grown: grown)
            restoreTimeLimit()
        }
        if let uncaught = options.uncaught, !error.isMemoryLimit, pendingFailure == nil {
            uncaught(error)
            return
        }
        if pendingFailure == nil { pendingFailure = error }
    }

    /// Schedules `function(...arguments)` after `delayMs`; repeats when `repeats`. Returns its id:
    /// a new one, or `reusing`, the id of a script timer that has fired and is started again
    /// (`refresh()` after the callback ran, as node allows).
    public func addTimer(_ function: JSObjectRef, delayMs: Double, repeats: Bool, arguments: [JSValueRef] = [], reusing: Int? = nil) -> Int {
        assertOnLoopThread()
        let id: Int
        if let reusing, reusing > 0, reusing < nextTimerID, timerCallbacks[reusing] == nil, !nativeTimerIDs.contains(reusing) {
            id = reusing
        } else {
            id = nextTimerID
            nextTimerID += 1
        }
        let delay = UInt64(max(1, delayMs.isFinite ? min(delayMs, 2_147_483_647) : 1) * 1_000_000)
        context.protect(function)
        for argument in arguments { context.protect(argument) }
        var callback = TimerCallback(body: .script(function, arguments), interval: repeats ? delay : nil, delay: delay)
        callback.sequence = timers.insert(id: id, due: MonotonicClock.now() + delay)
        timerCallbacks[id] = callback
        return id
    }

    /// `timeout.ref()` / `unref()`: whether a script timer keeps the loop alive. False when `id` is
    /// no scheduled script timer.
    @discardableResult
    func setScriptTimerKeepsAlive(_ id: Int, _ keepsAlive: Bool) -> Bool {
        assertOnLoopThread()
        guard timerCallbacks[id] != nil, !nativeTimerIDs.contains(id) else { return false }
        if keepsAlive { unrefTimerIDs.remove(id) } else { unrefTimerIDs.insert(id) }
        return true
    }

    /// `timeout.refresh()`: the countdown of a scheduled script timer starts again from now, with
    /// its delay (an interval's period). False when `id` is no scheduled script timer.
    func refreshScriptTimer(_ id: Int) -> Bool {
        assertOnLoopThread()
        guard var callback = timerCallbacks[id], !nativeTimerIDs.contains(id) else { return false }
        callback.sequence = timers.insert(id: id, due: MonotonicClock.now() + callback.delay)
        timerCallbacks[id] = callback
        return true
    }

    /// Runs `body` on the JS thread after `delayMs`, once. A native timer does not keep the loop
    /// alive by itself (the work it guards does, e.g. a pending call's hold).
    public func addNativeTimer(delayMs: Double, _ body: @escaping () -> Void) -> Int {
        assertOnLoopThread()
        let id = nextTimerID
        nextTimerID += 1
        // Capped at about 31 years, so that the nanoseconds fit a UInt64 (timeoutMs: 1e300 must not trap).
        let delay = UInt64(min(max(0, delayMs.isFinite ? delayMs : 0), 1e12) * 1_000_000)
        var callback = TimerCallback(body: .native(body), interval: nil, delay: delay)
        callback.sequence = timers.insert(id: id, due: MonotonicClock.now() + delay)
        timerCallbacks[id] = callback
        nativeTimerIDs.insert(id)
        return id
    }

    /// `clearTimeout`/`clearInterval`: clears only a timer JS set. A native timer (a call's
    /// timeout) is not JS's to clear, whatever id a script passes.
    func clearScriptTimer(_ id: Int) {
        guard !nativeTimerIDs.contains(id) else { return }
        clearTimer(id)
    }

    public func clearTimer(_ id: Int) {
        assertOnLoopThread()
        nativeTimerIDs.remove(id)
        unrefTimerIDs.remove(id)
        guard let callback = timerCallbacks.removeValue(forKey: id) else { return }
        unprotect(callback)
    }

    private func unprotect(_ callback: TimerCallback) {
        guard case .script(let function, let arguments) = callback.body else { return }
        context.unprotect(function)
        for argument in arguments { context.unprotect(argument) }
    }

    // MARK: - The loop

    private func startThread() {
        let box = Unmanaged.passRetained(self)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, options.stackSize)
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let engine = Unmanaged<JSEngine>.fromOpaque(raw!).takeRetainedValue()
            engine.runLoop()
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        precondition(result == 0, "could not start the JS thread (pthread_create: \(result))")
        signal.withLock { self.thread = thread }
    }

    private func runLoop() {
        loopThread.store(UInt(pthread_self()), ordering: .releasing)
        setUpContext()
        while true {
            signal.lock()
            while posted.isEmpty && !stopRequested {
                let now = MonotonicClock.now()
                let liveTimers = timerCallbacks.count > nativeTimerIDs.count + unrefTimerIDs.count
                if endRequested {
                    // Ended with work pending: idle for whoever waits; only posted work runs now.
                    if pendingFailure == nil && !isIdle { reportIdleLocked(.idle) }
                    if posted.isEmpty && !stopRequested { signal.wait(until: nil) }
                } else if let next = timers.first, liveTimers || holds > 0 {
                    if next.due <= now { break }
                    signal.wait(until: next.due)
                } else if holds == 0 && pendingFailure == nil && !isIdle {
                    reportIdleLocked(.idle)
                } else {
                    signal.wait(until: nil)
                }
            }
            if stopRequested {
                signal.unlock()
                break
            }
            for task in takePostedAndUnlock() {
                task(context)
                if checkFailure() { break }
            }
            if pendingFailure == nil && !endRequested { runDueTimers() }
            context.releaseTransientNames()
            if checkFailure() {
                // Node stops at the first uncaught error: no timer or completion runs after it.
                // Work the host posts (perform) still runs, so nobody waiting on it hangs.
                runHostTasksUntilShutdown()
                break
            }
        }
        if memory != nil {
            JSContextGroupRemoveHeapFinalizer(group, heapCollected, Unmanaged.passUnretained(self).toOpaque())
            memory = nil
            restoreTimeLimit()
        }
        runLeftoverTasks()
        for hook in shutdownHooks { hook(context) }
        shutdownHooks.removeAll()
        for callback in timerCallbacks.values { unprotect(callback) }
        timerCallbacks.removeAll()
        context = nil
        JSContextGroupRelease(group)
        if options.inspection != nil { RemoteInspection.releaseDefaultContext() }
        let (waiters, final): ([(EngineOutcome) -> Void], EngineOutcome) = signal.withLock {
            finished = true
            if outcome == nil { outcome = .idle }
            defer { idleWaiters.removeAll() }
            return (idleWaiters, outcome!)
        }
        for waiter in waiters { waiter(final) }
    }

    private func runHostTasksUntilShutdown() {
        while true {
            signal.lock()
            while posted.isEmpty && !stopRequested { signal.wait(until: nil) }
            if stopRequested {
                signal.unlock()
                return
            }
            for task in takePostedAndUnlock() { task(context) }
        }
    }

    /// The posted tasks, taken with the lock held; returns with the lock released.
    private func takePostedAndUnlock() -> [(ScriptContext) -> Void] {
        let batch = posted
        posted.removeAll(keepingCapacity: true)
        signal.unlock()
        return batch
    }

    /// Tasks posted before shutdown still run, so every `perform` returns.
    private func runLeftoverTasks() {
        let batch: [(ScriptContext) -> Void] = signal.withLock {
            let batch = posted
            posted.removeAll()
            accepting = false
            return batch
        }
        for task in batch { task(context) }
    }

    /// True when the run has failed (and waiters were told).
    private func checkFailure() -> Bool {
        guard let failure = pendingFailure else { return false }
        signal.lock()
        let alreadyReported = outcome != nil && outcome != .idle
        if !alreadyReported { outcome = .failed(failure) }
        let waiters = alreadyReported ? [] : idleWaiters
        if !alreadyReported { idleWaiters.removeAll() }
        signal.unlock()
        for waiter in waiters { waiter(.failed(failure)) }
        return true
    }

    /// Called with the lock held when the loop has nothing left to do.
    private func reportIdleLocked(_ result: EngineOutcome) {
        guard !isIdle else { return }
        isIdle = true
        outcome = result
        let waiters = idleWaiters
        idleWaiters.removeAll()
        guard !waiters.isEmpty else { return }
        signal.unlock()
        for waiter in waiters { waiter(result) }
        signal.lock()
        // A waiter may have posted work; the loop condition re-checks.
        if !posted.isEmpty { isIdle = false }
    }

    private func runDueTimers() {
        let now = MonotonicClock.now()
        // As libuv decides before its timers run: an unref'd script timer runs only while something
        // else keeps the loop alive (a ref'd script timer, a pending call). Else it stays where it
        // is, and the loop goes idle. Native timers run when due, as before.
        let alive = holds > 0 || timerCallbacks.count > nativeTimerIDs.count + unrefTimerIDs.count
        var waiting: [(id: Int, due: UInt64)] = []
        defer {
            // (Unless a callback of this turn cleared it.)
            for entry in waiting where timerCallbacks[entry.id] != nil {
                timerCallbacks[entry.id]!.sequence = timers.insert(id: entry.id, due: entry.due)
            }
        }
        // Only timers due now: ones a callback adds wait for the next turn.
        while let next = timers.first, next.due <= now {
            _ = timers.removeFirst()
            guard var callback = timerCallbacks[next.id], callback.sequence == next.sequence else { continue }
            if !alive, unrefTimerIDs.contains(next.id), case .script = callback.body {
                waiting.append((next.id, next.due))
                continue
            }
            if let interval = callback.interval {
                callback.sequence = timers.insert(id: next.id, due: max(next.due + interval, now))
                timerCallbacks[next.id] = callback
            } else {
                timerCallbacks[next.id] = nil
                unrefTimerIDs.remove(next.id)
            }
            switch callback.body {
            case .native(let body):
                nativeTimerIDs.remove(next.id)
                body()
            case .script(let function, let arguments):
                do {
                    try context.call(function, arguments)
                } catch {
                    fail(error)
                }
            }
            if callback.interval == nil { unprotect(callback) }
            if pendingFailure != nil { return }
        }
    }

    /// The allocator's policy for the large blocks engines churn through, set once per process.
    private static let mallocPolicy: Void = MallocPolicy.reuseFreedBlocks()

    private func setUpContext() {
        _ = Self.mallocPolicy
        if let inspection = options.inspection { RemoteInspection.start(inspection) }
        group = JSContextGroupCreate()
        if let limit = options.timeLimitSeconds {
            JSContextGroupSetExecutionTimeLimit(group, limit, { _, _ in true }, nil)
        }
        context = ScriptContext(group: group, sourceMaps: sourceMaps)
        context.engine = self
        if let inspection = options.inspection {
            let name = JSStringCreateWithUTF8CString(inspection.contextName)
            JSGlobalContextSetName(context.ref, name)
            JSStringRelease(name)
            scheduleInspectorService()
        }
        let rejection = context.makeFunction { [unowned self] args in
            let reason = args[1]
            var error = args.context.scriptError(from: reason)
            // A rejection with a value that is not an Error is named so, as node names it; but the
            // main module's top-level await rejects with what the module threw, printed as a throw.
            if error.thrownNonError, !error.isTimeLimit, !args.context.isMainEvaluation(args[0]) {
                error = ScriptError(name: "UnhandledPromiseRejection", message: error.message)
            }
            fail(error)
            return nil
        }
        JSGlobalContextSetUnhandledRejectionCallback(context.ref, rejection, nil)
        RuntimeInstaller.install(into: context, engine: self)
        heapTrim = HeapTrim(resident: ResidentMemory.bytes() ?? 0, now: .now)
        scheduleHeapTrim()
        if let log = HeapStatisticsLog.fromEnvironment() {
            log.record(context, trims: heapTrim.trims)
            scheduleHeapStatistics(log)
        }
        if let limit = options.memoryLimitBytes, let guarding = MemoryGuard(limit: limit) {
            memory = guarding
            // The watchdog must exist before a collection arms it: made inside one, it aborts.
            // Armed only then, since an armed watchdog costs about 1.2 µs at every entry into JS.
            if options.timeLimitSeconds == nil {
                JSContextGroupSetExecutionTimeLimit(group, 1e9, { _, _ in true }, nil)
                JSContextGroupClearExecutionTimeLimit(group)
            }
            JSContextGroupAddHeapFinalizer(group, heapCollected, Unmanaged.passUnretained(self).toOpaque())
            scheduleMemoryCheck()
        }
    }

    // MARK: - The inspector's socket (RemoteInspection)

    /// From any thread, after the hub writes to the inspector: its socket is read on the JS thread.
    public func serveInspector() {
        RemoteInspection.wake()
        post { _ in RemoteInspection.pump() }
    }

    /// `--inspect-brk`: a task that holds the loop, serving the inspector, until `released()`
    /// (the debugger is ready). Post it before the app's first module.
    public func waitForDebugger(until released: @escaping @Sendable () -> Bool) {
        post { _ in RemoteInspection.pump(until: released) }
    }

    /// Every 50 ms between tasks, while the engine runs: what the wakes did not cover (a write
    /// the socket took only in part waits for it to be writable again).
    private func scheduleInspectorService() {
        _ = addNativeTimer(delayMs: 50) { [unowned self] in
            RemoteInspection.pump()
            scheduleInspectorService()
        }
    }

    // MARK: - Giving the heap's empty blocks back (HeapTrim)

    /// Every ``HeapTrim/interval`` between tasks, for as long as the engine runs.
    private func scheduleHeapTrim() {
        _ = addNativeTimer(delayMs: Double(HeapTrim.interval.components.seconds) * 1000) { [unowned self] in
            if let resident = ResidentMemory.bytes(), heapTrim.shouldTrim(resident: resident, now: .now) {
                JSSynchronousGarbageCollectForDebugging(context.ref)
            }
            scheduleHeapTrim()
        }
    }

    // MARK: - Heap statistics (HYBRID_HEAP_STATS)

    /// Every 10 s between tasks, a line of heap figures, for as long as the engine runs.
    private func scheduleHeapStatistics(_ log: HeapStatisticsLog) {
        _ = addNativeTimer(delayMs: HeapStatisticsLog.intervalMs) { [unowned self] in
            log.record(context, trims: heapTrim.trims)
            scheduleHeapStatistics(log)
        }
    }

    // MARK: - The memory limit

    /// Between tasks, every 100 ms: a run over its limit ends here, with no JS to stop.
    private func scheduleMemoryCheck() {
        _ = addNativeTimer(delayMs: 100) { [unowned self] in
            guard let memory else { return }
            if let grown = memory.check() {
                fail(memory.error(grown: grown))
            } else {
                scheduleMemoryCheck()
            }
        }
    }

    /// At the end of a garbage collection, which may be in the middle of a long synchronous run:
    /// over the limit, the watchdog is armed to stop that run within a millisecond (its exception
    /// reaches ``fail(_:)``, which reports it as the memory limit).
    fileprivate func collected() {
        guard isLoopThread, let memory, memory.exceeded == nil, memory.check() != nil else { return }
        JSContextGroupSetExecutionTimeLimit(group, 0.001, { _, _ in true }, nil)
    }

    /// The watchdog as `--time-limit` set it.
    private func restoreTimeLimit() {
        if let limit = options.timeLimitSeconds {
            JSContextGroupSetExecutionTimeLimit(group, limit, { _, _ in true }, nil)
        } else {
            JSContextGroupClearExecutionTimeLimit(group)
        }
    }
}

private let heapCollected: JSHeapFinalizer = { _, engine in
    Unmanaged<JSEngine>.fromOpaque(engine!).takeUnretainedValue().collected()
}

extension JSEngine {
    /// The WebKitGTK release of the JavaScriptCore library loaded, e.g. "2.50.6".
    public static var webKitVersion: String {
        "\(jsc_get_major_version()).\(jsc_get_minor_version()).\(jsc_get_micro_version())"
    }
}

extension JSEngine {
    /// Runs `body` on the JS thread and blocks the calling thread until it returns. For the
    /// command line and set-up, never from the JS thread itself.
    public func performAndWait<T>(_ body: @escaping (ScriptContext) throws -> T) throws -> T {
        let done = LoopSignal()
        nonisolated(unsafe) var result: Result<T, any Error>?
        nonisolated(unsafe) let body = body
        let accepted = post { context in
            let outcome = Result { try body(context) }
            done.withLock { result = outcome }
            done.broadcast()
        }
        if !accepted { throw EngineStoppedError() }
        done.lock()
        while result == nil { done.wait(until: nil) }
        done.unlock()
        return try result!.get()
    }
}

/// Work posted to an engine whose loop has ended.
public struct EngineStoppedError: Error, Sendable, CustomStringConvertible {
    public var description: String { "the engine has shut down" }
}
