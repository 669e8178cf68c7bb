import Dispatch
import Glibc

/// One client connection on its own thread: reads one request, asks the schedule what to do with
/// it, does that, and closes. Every exchange with the upstream is on a new connection that the
/// upstream closes after its response, so the response is read whole without being parsed.
struct ProxyConnection: Sendable {
    /// How long a quiet client or upstream may keep a connection's thread waiting.
    static let receiveTimeoutMs = 10_000

    let client: ProxySocket
    let upstreamPort: Int
    let schedule: FaultSchedule
    let registry: SocketRegistry

    func serve() {
        defer {
            registry.remove(client)
            client.close()
        }
        let request: ProxiedRequest
        switch ProxiedRequest.read(from: client) {
        case .request(let read): request = read
        case .refused(let status): respond(Self.plainResponse(status)); return
        case .gone: return
        }

        let decision = schedule.decide(method: request.method, path: request.path)
        // The request held by an earlier reorder goes once this one has been forwarded, whatever
        // becomes of this one: released on every path out of here.
        var releasing = decision.releasing
        func forwarded() -> [UInt8] {
            defer { releasing?.release(); releasing = nil }
            return forward(request)
        }
        defer { releasing?.release() }

        switch decision.kind {
        case .pass:
            respond(forwarded())
        case .drop:
            return
        case .dropResponse:
            _ = forwarded()
        case .duplicate:
            _ = forward(request)
            respond(forwarded())
        case .delay:
            pause(milliseconds: decision.event.delayMs ?? 0)
            respond(forwarded())
        case .reorder:
            if let hold = decision.hold { wait(for: hold) }
            respond(forwarded())
        case .cut:
            let response = forwarded()
            respond(Array(response.prefix(response.count / 2)))
        }
    }

    /// Waits until the next request has been forwarded, or `holdMs` with none arriving.
    private func wait(for hold: ReorderHold) {
        guard hold.gate.wait(timeout: .now() + .milliseconds(hold.limitMs)) == .timedOut else { return }
        if schedule.withdraw(hold) { return }
        // Taken by a next request just as the wait ran out: it is being forwarded now, and releases
        // this one when done. Bounded all the same, since its upstream may hang until its timeout.
        _ = hold.gate.wait(timeout: .now() + .milliseconds(2 * Self.receiveTimeoutMs))
    }

    /// Sleeps, in short steps so that `stop()` cuts the pause short.
    private func pause(milliseconds: Int) {
        var left = milliseconds
        while left > 0, !registry.isStopped {
            let step = min(left, 10)
            usleep(useconds_t(step * 1000))
            left -= step
        }
    }

    /// The upstream's whole response to `request`, rewritten to close the client connection after
    /// it; a 502 when the upstream cannot be reached or does not answer in time. Once the proxy is
    /// stopped it no longer connects: the upstream may be shutting down behind it.
    private func forward(_ request: ProxiedRequest) -> [UInt8] {
        guard !registry.isStopped,
              let upstream = ProxySocket.connect(toPort: upstreamPort, receiveTimeoutMs: Self.receiveTimeoutMs) else {
            return Self.plainResponse("502 Bad Gateway")
        }
        defer { upstream.close() }
        guard registry.add(upstream) else { return Self.plainResponse("502 Bad Gateway") }
        defer { registry.remove(upstream) }
        guard upstream.send(request.forwarded), let response = upstream.receiveToEnd(), !response.isEmpty else {
            return Self.plainResponse("502 Bad Gateway")
        }
        return Self.closing(response)
    }

    private func respond(_ bytes: [UInt8]) {
        guard !registry.isStopped else { return }
        client.send(bytes)
    }

    /// `response` with its head saying `Connection: close`, since the proxy closes after it.
    static func closing(_ response: [UInt8]) -> [UInt8] {
        guard let end = HTTPHead.end(in: response) else { return response }
        var head = HTTPHead(response[..<end])
        head.remove(["connection", "keep-alive"])
        head.add("Connection", "close")
        return head.bytes + response[(end + HTTPHead.terminator.count)...]
    }

    static func plainResponse(_ status: String) -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\nContent-Length: \(status.utf8.count)\r\nConnection: close\r\n\r\n\(status)".utf8)
    }
}
