import Bridge
import CurlTransport
import Synchronization
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// `app.json` `network.hosts` applied to the app's requests, hop by hop: a host's pinned public
/// keys, the CAs that verify it, and its addresses, tried fastest first (the design articles'
/// IP-list strategy: measure each address's connect time once, then prefer the quickest, curl
/// falling back along the list).
///
/// ```json
/// "network": {"hosts": {"api.example.com": {"pins": ["sha256//..."], "addresses": ["203.0.113.7", "203.0.113.8"]}}}
/// ```
enum HostRouting {
    /// What `transfer` needs for `app`'s hosts; unchanged when the app names none. The first
    /// URL's addresses are measured first, once per process (at most a second); a redirect to
    /// another named host uses its measured order when there is one, else the order written.
    static func prepare(_ transfer: inout TransferRequest, app: AppContext) async {
        let hosts = app.network.hosts
        guard !hosts.isEmpty else { return }
        if let target = try? URLTarget(transfer.url), let addresses = hosts[target.host]?.addresses, addresses.count > 1 {
            _ = await AddressRanking.shared.ranked(host: target.host, port: target.port, addresses: addresses)
        }
        transfer.hostOverrides = { host in
            guard let settings = hosts[host] else { return nil }
            let addresses = AddressRanking.shared.measured(host: host, addresses: settings.addresses) ?? settings.addresses
            return HostOverrides(pinnedPublicKeys: settings.pins.isEmpty ? nil : settings.pins.joined(separator: ";"),
                                 caFile: settings.caFile, addresses: addresses)
        }
    }
}

/// Each named host's addresses in the order of their measured connect times, measured once per
/// process: addresses that answered, quickest first, then those that did not, as written.
final class AddressRanking: Sendable {
    static let shared = AddressRanking()
    private let orders = Mutex<[String: [String]]>([:])

    private static func key(_ host: String, _ addresses: [String]) -> String { host + "\n" + addresses.joined(separator: ",") }

    func measured(host: String, addresses: [String]) -> [String]? {
        orders.withLock { $0[Self.key(host, addresses)] }
    }

    func ranked(host: String, port: Int, addresses: [String]) async -> [String] {
        if let known = measured(host: host, addresses: addresses) { return known }
        let order = await DetachedThread.run { Self.measure(addresses, port: port, timeoutMs: 1000) }
        orders.withLock { $0[Self.key(host, addresses)] = order }
        return order
    }

    /// Connects to every address at once (non-blocking) and orders them by when each connection
    /// was made; the connections are closed unused.
    static func measure(_ addresses: [String], port: Int, timeoutMs: Int) -> [String] {
        var sockets: [(address: String, fd: Int32)] = []
        defer { for (_, fd) in sockets where fd >= 0 { close(fd) } }
        for address in addresses { sockets.append((address, connectStarted(address, port: port))) }
        var connected: [String] = []
        var waiting = sockets.filter { $0.fd >= 0 }
        let started = MonotonicClock.now()
        while !waiting.isEmpty {
            let left = timeoutMs - Int((MonotonicClock.now() - started) / 1_000_000)
            guard left > 0 else { break }
            var polls = waiting.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), Int32(left)) > 0 else { break }
            var still: [(address: String, fd: Int32)] = []
            for (index, entry) in waiting.enumerated() {
                guard polls[index].revents != 0 else { still.append(entry); continue }
                var error: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(entry.fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0, error == 0 { connected.append(entry.address) }
            }
            waiting = still
        }
        return connected + addresses.filter { !connected.contains($0) }
    }

    /// A non-blocking connect to `address` under way, or -1.
    private static func connectStarted(_ address: String, port: Int) -> Int32 {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            return start(AF_INET) { fd in
                withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            }
        }
        if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            return start(AF_INET6) { fd in
                withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            }
        }
        return -1
    }

    private static func start(_ family: Int32, _ connecting: (Int32) -> Int32) -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        if connecting(fd) == 0 || errno == EINPROGRESS { return fd }
        close(fd)
        return -1
    }
}
