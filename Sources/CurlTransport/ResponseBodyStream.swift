import Synchronization

/// A response body that is still arriving, read a chunk at a time (``TransferSink/stream``): what
/// `fetch`'s `response.body` reads through.
///
/// Backpressure: at most ``highWater`` bytes wait here. Past it the transfer is paused (curl holds
/// the bytes it has and stops reading the socket, so the server's sends slow down through TCP) and
/// it resumes when a read makes room. So a 100 MB download read slowly holds about 1 MiB here.
///
/// ```swift
/// let response = try await CurlClient.shared.perform(TransferRequest(url: url, sink: .stream))
/// if let body = response.stream {
///     while case .bytes(let chunk) = await body.next() { consume(chunk) }
/// }
/// ```
///
/// One reader at a time. Thread-safe: the curl thread offers bytes and ends it, any task reads or
/// cancels it.
public final class ResponseBodyStream: Sendable {
    /// What a read gives.
    public enum Chunk: Sendable {
        /// The next bytes, at most ``maxChunk`` of them.
        case bytes([UInt8])
        /// The body ended: everything was read.
        case end
        /// The transfer failed (or was cancelled) before the body ended.
        case failed(TransferError)
    }

    /// How many bytes may wait unread before the transfer is paused.
    public static let highWater = 1 << 20
    /// The most one read hands over.
    public static let maxChunk = 1 << 18

    private struct State {
        var buffer: [UInt8] = []
        /// Where the unread bytes of `buffer` start: a read moves it on instead of shifting the rest.
        var start = 0
        var unread: Int { buffer.count - start }
        /// nil while the body arrives; then how it ended.
        var outcome: TransferError?? = .none
        var paused = false
        var reader: CheckedContinuation<Chunk, Never>?
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    /// Asks the curl thread to resume the paused transfer.
    private let resume: @Sendable () -> Void
    /// Asks the curl thread to abort the transfer.
    private let abort: @Sendable () -> Void

    init(received: [UInt8], resume: @escaping @Sendable () -> Void, abort: @escaping @Sendable () -> Void) {
        state = Mutex(State(buffer: received))
        self.resume = resume
        self.abort = abort
    }

    /// The next chunk: at once when bytes wait or the body has ended, otherwise when some arrive.
    public func next() async -> Chunk {
        enum Step { case answer(Chunk, resume: Bool), wait }
        let step = state.withLock { state -> Step in
            if let chunk = Self.take(&state) {
                let resume = state.paused
                state.paused = false
                return .answer(chunk, resume: resume)
            }
            return .wait
        }
        switch step {
        case .answer(let chunk, let resume):
            if resume { self.resume() }
            return chunk
        case .wait:
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Chunk? in
                    if let chunk = Self.take(&state) { return chunk }
                    precondition(state.reader == nil, "ResponseBodyStream: two reads at once")
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// Ends the body for its reader and aborts the transfer. Reads from now on fail as cancelled;
    /// calling it again, or after the body ended, does nothing.
    public func cancel() {
        guard end(TransferError(.cancelled, "the response body was cancelled")) else { return }
        abort()
    }

    /// Returns when the transfer is over: the body ended, failed or was cancelled. Read or not.
    public func finished() async {
        await withCheckedContinuation { continuation in
            let over = state.withLock { state -> Bool in
                if case .some = state.outcome { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if over { continuation.resume() }
        }
    }

    // ---- The curl thread's side ----

    /// Takes `bytes` unless the buffer is full: false means "pause the transfer" (curl keeps the
    /// bytes and offers them again once resumed).
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let (accepted, handOff) = state.withLock { state -> (Bool, (CheckedContinuation<Chunk, Never>, Chunk)?) in
            if case .some = state.outcome { return (true, nil) }
            if state.unread >= Self.highWater {
                state.paused = true
                return (false, nil)
            }
            state.buffer.append(contentsOf: bytes)
            guard let reader = state.reader, let chunk = Self.take(&state) else { return (true, nil) }
            state.reader = nil
            return (true, (reader, chunk))
        }
        if let (reader, chunk) = handOff { reader.resume(returning: chunk) }
        return accepted
    }

    /// Records how the transfer ended (nil: the body is complete). True when this was the end.
    @discardableResult
    func end(_ failure: TransferError?) -> Bool {
        let woken = state.withLock { state -> (reader: (CheckedContinuation<Chunk, Never>, Chunk)?, waiters: [CheckedContinuation<Void, Never>])? in
            if case .some = state.outcome { return nil }
            state.outcome = .some(failure)
            // A failure drops what was not read: the body is broken, as fetch's stream errors.
            if failure != nil { (state.buffer, state.start) = ([], 0) }
            var reader: (CheckedContinuation<Chunk, Never>, Chunk)?
            if let waiting = state.reader, let chunk = Self.take(&state) {
                state.reader = nil
                reader = (waiting, chunk)
            }
            let waiters = state.endWaiters
            state.endWaiters = []
            return (reader, waiters)
        }
        guard let woken else { return false }
        if let (reader, chunk) = woken.reader { reader.resume(returning: chunk) }
        for waiter in woken.waiters { waiter.resume() }
        return true
    }

    /// What a read may take now: buffered bytes first, then the outcome; nil while neither is there.
    private static func take(_ state: inout State) -> Chunk? {
        if state.unread > 0 {
            if state.start == 0, state.buffer.count <= maxChunk {
                var all: [UInt8] = []
                swap(&all, &state.buffer)
                return .bytes(all)
            }
            let end = min(state.start + maxChunk, state.buffer.count)
            let chunk = Array(state.buffer[state.start..<end])
            state.start = end
            // The read part is dropped once it is most of the buffer: one shift per several reads.
            if state.start == state.buffer.count {
                state.buffer.removeAll(keepingCapacity: true)
                state.start = 0
            } else if state.start >= state.buffer.count / 2 {
                state.buffer.removeFirst(state.start)
                state.start = 0
            }
            return .bytes(chunk)
        }
        switch state.outcome {
        case .none: return nil
        case .some(.none): return .end
        case .some(.some(let failure)): return .failed(failure)
        }
    }
}
