import Glibc
import HybridHost
import Synchronization

/// Results of inputs: each printed on the JS thread as soon as it is known (so that it comes
/// before what the app prints next, a timer's output, say), then handed to the thread that reads
/// the terminal through a pipe, so that thread can wait for a result and for keys at once (Ctrl-C
/// stops waiting; the result of an input no longer waited for is not printed).
final class ReplResults: Sendable {
    private let results = Mutex<(done: [Int: ReplSession.Result], abandoned: Set<Int>)>(([:], []))
    private let wake: (read: Int32, write: Int32)
    private let console: ReplConsole

    init(console: ReplConsole) {
        self.console = console
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "hybrid repl: pipe failed (errno \(errno))")
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// The completion for input number `id`: called once, on the JS thread.
    func completion(for id: Int) -> @Sendable (ReplSession.Result) -> Void {
        { [self] result in
            results.withLock { results in
                if results.abandoned.remove(id) != nil { return }
                console.write(result.text + "\n", to: 1)
                results.done[id] = result
            }
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
        }
    }

    /// Waits for the result of input `id` (printed by then). With `keys`, stdin is watched too:
    /// each chunk typed meanwhile is handed to it, and when it answers true (Ctrl-C) the wait ends
    /// with nil, unless the result came first.
    func wait(for id: Int, keys: (([UInt8]) -> Bool)? = nil) -> ReplSession.Result? {
        while true {
            if let result = results.withLock({ $0.done.removeValue(forKey: id) }) { return result }
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if keys != nil { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            if fds[0].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                _ = read(wake.read, &drained, drained.count)
            }
            if let keys, fds.count > 1, fds[1].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 256)
                let count = read(STDIN_FILENO, &chunk, chunk.count)
                if count <= 0 { continue }
                if keys(Array(chunk.prefix(count))) {
                    return results.withLock { results in
                        if let result = results.done.removeValue(forKey: id) { return result }
                        results.abandoned.insert(id)
                        return nil
                    }
                }
            }
        }
    }
}
