import Synchronization

/// The sockets a proxy has open, so that `stop()` can shut them all down, and whether it has been
/// stopped, so that a socket opened during the stop is refused rather than missed.
final class SocketRegistry: Sendable {
    private struct State {
        var open: [ObjectIdentifier: ProxySocket] = [:]
        var stopped = false
    }

    private let state = Mutex(State())

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Tracks `socket` until `remove`; false (and nothing tracked) once stopped.
    func add(_ socket: ProxySocket) -> Bool {
        state.withLock { state in
            if state.stopped { return false }
            state.open[ObjectIdentifier(socket)] = socket
            return true
        }
    }

    func remove(_ socket: ProxySocket) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(socket)) }
    }

    /// Marks the registry stopped and shuts down every socket in it; true the first time only.
    func stop() -> Bool {
        let sockets: [ProxySocket]? = state.withLock { state in
            if state.stopped { return nil }
            state.stopped = true
            return Array(state.open.values)
        }
        guard let sockets else { return false }
        for socket in sockets { socket.shutDown() }
        return true
    }
}
