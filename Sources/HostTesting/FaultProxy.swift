// FaultProxy: a fault-injecting HTTP/1.1 proxy for tests, between HTTP clients (libcurl) and a
// server on 127.0.0.1. On a seeded schedule it drops, duplicates, delays, reorders and cuts
// requests, so that sync can be tested against the network it will really meet, and a failing
// seed replayed. Raw POSIX sockets and a thread per connection; no dependency but the C library,
// Synchronization and Foundation's threads. It must never listen or connect beyond the loopback
// address, and never sit in a shipping code path: it is test support only.

import Dispatch
import Foundation
import SystemIO

/// A proxy on 127.0.0.1 and an ephemeral port that forwards each request to
/// 127.0.0.1:`upstreamPort`, faulting it on a seeded schedule.
///
/// Each request gets one decision from a SplitMix64 generator seeded with `seed`, drawn in
/// arrival order, so the same seed and the same sequence of requests give the same `events`.
/// One request per client connection: the proxy answers with `Connection: close` and closes
/// (libcurl reconnects).
///
/// ```swift
/// let proxy = try FaultProxy(upstreamPort: server.port, seed: 42, plan: .chaos(rate: 0.3))
/// defer { proxy.stop() }
/// // ... point the sync client at proxy.base and run it ...
/// proxy.heal()
/// // ... now it must converge; on failure print the seed and proxy.events ...
/// ```
public final class FaultProxy: Sendable {
    /// The port the proxy listens on, on 127.0.0.1.
    public let port: Int
    /// Where requests go: 127.0.0.1 and this port.
    public let upstreamPort: Int
    public let seed: UInt64

    private let schedule: FaultSchedule
    private let registry = SocketRegistry()
    private let acceptLoopEnded = DispatchSemaphore(value: 0)
    /// One member per connection thread still running.
    private let connections = DispatchGroup()

    /// The proxy's address as a URL prefix, e.g. `http://127.0.0.1:40123`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Starts listening and accepting at once; throws only when the listening socket cannot be set up.
    public init(upstreamPort: Int, seed: UInt64, plan: FaultPlan) throws(FaultProxyError) {
        let (listener, port) = try ProxySocket.listen()
        self.port = port
        self.upstreamPort = upstreamPort
        self.seed = seed
        schedule = FaultSchedule(seed: seed, plan: plan)
        _ = registry.add(listener)
        // The accept loop holds the proxy's parts, never the proxy itself, so that dropping the
        // last reference to the proxy runs `deinit`, which stops it.
        DetachedThread.start { [registry, schedule, acceptLoopEnded, connections] in
            defer {
                registry.remove(listener)
                listener.close()
                acceptLoopEnded.signal()
            }
            while let client = listener.accept() {
                guard registry.add(client) else {
                    client.close()
                    continue
                }
                client.setReceiveTimeout(milliseconds: ProxyConnection.receiveTimeoutMs)
                let connection = ProxyConnection(client: client, upstreamPort: upstreamPort, schedule: schedule, registry: registry)
                connections.enter()
                DetachedThread.start {
                    connection.serve()
                    connections.leave()
                }
            }
        }
    }

    deinit { stop() }

    /// The plan in force.
    public var plan: FaultPlan { schedule.plan }

    /// What the proxy decided for each request it read, in arrival order.
    public var events: [FaultEvent] { schedule.events }

    /// How many requests got each kind; a kind that never happened is absent.
    public var counts: [FaultKind: Int] { schedule.counts }

    /// Faults by `plan` from the next request on; requests already being handled keep theirs.
    public func setPlan(_ plan: FaultPlan) {
        schedule.setPlan(plan)
    }

    /// Forwards every request from now on faithfully and at once (the plan becomes `.none`), and
    /// releases a request held for reordering. `setPlan` brings faults back.
    public func heal() {
        schedule.setPlan(.none)
        schedule.releaseHeld()
    }

    /// Closes the listener and every open connection, client and upstream side, cutting short any
    /// delay or hold; returns once every socket is closed, so that the upstream can be stopped
    /// next without a proxied connection reaching it mid-shutdown. Later calls do nothing.
    public func stop() {
        guard registry.stop() else { return }
        schedule.releaseHeld()
        acceptLoopEnded.wait()
        // Every connection's sockets are shut down and its waits cut short, so this is quick;
        // bounded all the same, in case an upstream connect itself hangs.
        _ = connections.wait(timeout: .now() + .seconds(ProxyConnection.receiveTimeoutMs / 1000))
    }
}
