import CCurl
import Synchronization
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// One curl multi handle, driven by one thread of its own (`curl_multi_poll`, woken by
/// `curl_multi_wakeup` when work arrives). Every transfer of the process runs here, so they share
/// one connection cache (keep-alive reuse, HTTP/2 multiplexing) and one DNS cache.
///
/// Threading contract: the multi handle, the easy handles and ``CurlTransfer``'s state are touched
/// only on the loop thread (asserted in debug builds, ``assertOnLoopThread()``). Other threads
/// talk to it through `inbox` and the wake-up call.
///
/// It is also a task executor (``CurlClient/executor``): a task that only drives transfers, such
/// as one shared by several callers, runs here and hands no work to another thread between hops.
// @unchecked: `inbox` and `pins` are Mutexes and `loopThread` atomic; `running`, `spareHandles`, `pinList`, `replacedPinLists` and the curl handles are touched on the curl thread only (assertOnLoopThread()); `multi` is used off it only by curl_multi_wakeup, which curl makes thread-safe.
final class CurlLoop: TaskExecutor, @unchecked Sendable {
    static let shared = CurlLoop()

    private enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        case run(UnownedJob)
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<[Command]>([])
    /// The loop thread's id, set when it starts.
    private let loopThread = Atomic<UInt>(0)
    // Loop thread only:
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Reset easy handles kept for the next transfers: creating one costs more than resetting it.
    private var spareHandles: [UnsafeMutableRawPointer] = []
    /// Streamed transfers whose head arrived in this round, handed over when it ends.
    private var headsArrived: [CurlTransfer] = []
    private static let spareLimit = 128
    /// curl `--resolve` entries (`host:port:address`), for every transfer from now on.
    private let pins = Mutex<[String]>([])
    /// Loop thread only: the pins as the list curl reads, and the lists it replaced, kept because
    /// a transfer configured with one may not have read it yet.
    private var pinList: (entries: Int, list: UnsafeMutablePointer<curl_slist>?) = (0, nil)
    private var replacedPinLists: [UnsafeMutablePointer<curl_slist>] = []

    private init() {
        hh_global_init(Int(CURL_GLOBAL_DEFAULT))
        multi = hh_multi_init()
        // Up to 256 idle connections stay open for reuse (curl's default grows with the handles).
        hh_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 256)
        let started = DetachedThread.start { [self] in run() }
        precondition(started, "could not start the curl thread")
    }

    func start(_ transfer: CurlTransfer) { send(.start(transfer)) }

    func cancel(_ transfer: CurlTransfer) { send(.cancel(transfer)) }

    /// Unpauses a transfer its reader paused.
    func resume(_ transfer: CurlTransfer) { send(.resume(transfer)) }

    /// Called by a streamed transfer, on this thread, when its answer's head is in.
    func headArrived(_ transfer: CurlTransfer) {
        assertOnLoopThread()
        headsArrived.append(transfer)
    }

    func enqueue(_ job: consuming ExecutorJob) { send(.run(UnownedJob(job))) }

    func pin(_ entry: String) { pins.withLock { $0.append(entry) } }

    /// Queues `command` and wakes the loop, once per batch: a command that finds others queued
    /// knows their sender's wake-up is still to be seen (the loop empties the inbox in one go).
    /// The loop thread itself (a task running here starts a transfer) needs no wake-up: the loop
    /// looks at the inbox before it sleeps.
    private func send(_ command: Command) {
        let wasEmpty = inbox.withLock { inbox in
            inbox.append(command)
            return inbox.count == 1
        }
        if wasEmpty && loopThread.load(ordering: .relaxed) != UInt(pthread_self()) { hh_multi_wakeup(multi) }
    }

    private func run() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        var active: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox -> [Command] in
                let taken = inbox
                inbox.removeAll(keepingCapacity: true)
                return taken
            }
            for command in commands {
                switch command {
                case .start(let transfer): begin(transfer)
                case .cancel(let transfer): stop(transfer)
                case .resume(let transfer):
                    if let easy = transfer.handle, running[easy] === transfer { transfer.resumeReading() }
                case .run(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                }
            }
            hh_multi_perform(multi, &active)
            var queued: Int32 = 0
            while let message = hh_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = running[easy] else { continue }
                let result = hh_message_result(message)
                transfer.finish(result)
                release(easy)
            }
            // After the round's finishes: a small answer that came whole in one round is handed
            // over with its body, not as a stream that needs one more read.
            for transfer in headsArrived { transfer.deliverHead() }
            headsArrived.removeAll(keepingCapacity: true)
            // Commands queued from this thread since the inbox was emptied must not wait a second.
            let idle = inbox.withLock { $0.isEmpty }
            var ready: Int32 = 0
            hh_multi_poll(multi, idle ? 1000 : 0, &ready)
        }
    }

    /// Stops a debug build when called off the loop thread, as SwiftNIO asserts its event loop.
    func assertOnLoopThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(loopThread.load(ordering: .relaxed) == UInt(pthread_self()), "CurlLoop: called off the curl thread", file: file, line: line)
    }

    private func begin(_ transfer: CurlTransfer) {
        assertOnLoopThread()
        if transfer.cancelledBeforeStart {
            transfer.cancel()
            return
        }
        let easy = spareHandles.popLast() ?? hh_easy_init()!
        transfer.configure(easy)
        if let list = transfer.resolveList(after: currentPins()) ?? currentPinList() { hh_easy_setopt_slist(easy, CURLOPT_RESOLVE, list) }
        running[easy] = transfer
        hh_multi_add_handle(multi, easy)
    }

    /// The process's pins (loop thread).
    private func currentPins() -> [String] { pins.withLock { $0 } }

    /// The pins as a curl list, rebuilt when one was added; nil when there are none.
    private func currentPinList() -> UnsafeMutablePointer<curl_slist>? {
        let entries = pins.withLock { $0 }
        if entries.count != pinList.entries {
            if let old = pinList.list { replacedPinLists.append(old) }
            var list: UnsafeMutablePointer<curl_slist>?
            for entry in entries { list = hh_slist_append(list, entry) }
            pinList = (entries.count, list)
        }
        return pinList.list
    }

    private func stop(_ transfer: CurlTransfer) {
        assertOnLoopThread()
        guard let easy = transfer.handle, running[easy] === transfer else {
            // Not started yet (the cancel overtook the start, or the caller saw its cancellation
            // and never starts it), or already finished. Kept on the transfer, not by its
            // identity here: one never started would leave its address behind for a new transfer.
            if transfer.handle == nil { transfer.cancelledBeforeStart = true }
            return
        }
        transfer.cancel()
        release(easy)
    }

    /// Takes a handle off the multi handle. A transfer cut short closes its connection; a finished
    /// one leaves it in the cache for the next request to the same host.
    private func release(_ easy: UnsafeMutableRawPointer) {
        assertOnLoopThread()
        hh_multi_remove_handle(multi, easy)
        running[easy]?.detachCookies()
        running[easy] = nil
        if spareHandles.count < Self.spareLimit {
            hh_easy_reset(easy)
            spareHandles.append(easy)
        } else {
            hh_easy_cleanup(easy)
        }
    }
}
