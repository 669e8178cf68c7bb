import SystemIO

/// Keyed values that long-poll actions wait on (`network.progress`, `sync.watch`): each key has a
/// value and a `seq` that grows with every update. A wait answers at once when the key has moved
/// past `since`, else at its next update, else with the value as it is after `timeoutMs`; a wait
/// may come before the key's first update and then waits for it. Cancelling a waiting task
/// answers it the same way.
///
/// ```swift
/// let board = LongPollBoard(initial: 0)
/// board.update("job") { $0 += 1 }
/// let next = await board.wait("job", since: 1, timeoutMs: 30_000)   // (seq, value) after seq 1
/// ```
public final class LongPollBoard<Value: Sendable>: Sendable {
    public struct Version: Sendable {
        /// 0 until the key's first update.
        public var seq: Int
        public var value: Value
    }

    private let initial: Value
    private let versions: WaitingBoard<[String: Version]>

    /// Timeouts run on `clock`.
    public init(initial: Value, clock: any HostClock = SystemClock()) {
        self.initial = initial
        versions = WaitingBoard([:], clock: clock)
    }

    public func current(_ key: String) -> Version {
        versions.read { $0[key] } ?? Version(seq: 0, value: initial)
    }

    /// Changes the key's value, moves its seq on, and answers the waits it satisfies.
    @discardableResult
    public func update(_ key: String, _ change: (inout Value) -> Void = { _ in }) -> Version {
        versions.update(touching: [key]) { versions in
            var version = versions[key] ?? Version(seq: 0, value: initial)
            change(&version.value)
            version.seq += 1
            versions[key] = version
            return version
        }
    }

    /// Drops a key (a finished job kept long enough): it reads as never updated again.
    public func forget(_ key: String) {
        versions.update(touching: [key]) { $0[key] = nil }
    }

    public func wait(_ key: String, since: Int, timeoutMs: Int) async -> Version {
        let initial = initial
        return await versions.wait(until: versions.clock.now + .milliseconds(timeoutMs), on: [key], { versions in
            guard let version = versions[key], version.seq > since else { return nil }
            return version
        }, otherwise: { versions in versions[key] ?? Version(seq: 0, value: initial) })
    }
}

/// What every long-poll action (`storage.watch`, `sync.watch`, `network.progress`) waits for when
/// its params name no `timeoutMs`, as their contracts say.
public enum LongPoll {
    public static let defaultTimeoutMs = 30_000
}
