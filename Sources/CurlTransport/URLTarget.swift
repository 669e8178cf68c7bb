import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// An absolute http(s) URL taken apart by curl's own parser (its URL API), so that the host a
/// grant is checked against is exactly the host curl will connect to.
///
/// The host is compared in one canonical form, which grants are written into too
/// (``grantedHost(_:)``):
///
/// - Numeric IPv4 spellings are what curl's URL API makes of them: `127.1`, `0x7f000001`,
///   `2130706433` and `0177.0.0.1` all become `127.0.0.1`, the address curl connects to.
/// - Names are lower-cased (ASCII only, as DNS compares them) and lose one trailing dot:
///   `API.example.test.` is `api.example.test`. The URL handed to curl is rewritten to that
///   form and parsed again, so curl connects to the very name that was compared (`127.1.`,
///   which curl would look up in DNS as a name, becomes `127.0.0.1`).
/// - IPv6 literals lose their brackets and are written as `inet_ntop` writes them
///   (`[0:0::1]` is `::1`). An IPv4-mapped address (`::ffff:127.0.0.1`) stays an IPv6 address:
///   a grant of `127.0.0.1` does not admit it.
/// - User names (`http://api.example.test@127.0.0.1/`) and fragments are curl's to separate:
///   the host is the part curl connects to, never what precedes an `@` or follows a `#`.
public struct URLTarget: Sendable, Equatable {
    /// The URL as curl normalised it, with the host in the form compared: what curl is given.
    public let url: String
    public let scheme: String
    /// The canonical host: what grants are compared with.
    public let host: String
    /// The port connected to: the URL's, else the scheme's (80, 443).
    public let port: Int

    /// Scheme, host and port, `http://127.0.0.1:8080`: what connections are kept and limited by.
    public var origin: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    public init(_ text: String) throws(TransferError) {
        self = try Self.parse(text).0
    }

    /// The target, and its handle for callers that read more of the URL.
    private static func parse(_ text: String) throws(TransferError) -> (URLTarget, CurlURL) {
        // A C string ends at a NUL: curl would see less of the URL than the caller wrote.
        guard !text.utf8.contains(0) else { throw TransferError(.badURL, "the URL contains a NUL character", url: text) }
        let handle = try CurlURL(text)
        let scheme = (handle.part(CURLUPART_SCHEME) ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw TransferError(.badURL, "\"\(text)\": expected an http or https URL, got scheme \"\(scheme)\"", url: text)
        }
        guard var host = handle.part(CURLUPART_HOST), !host.isEmpty else {
            throw TransferError(.badURL, "\"\(text)\" names no host", url: text)
        }
        if host.hasPrefix("[") {
            // curl has checked the literal; the fallback only keeps the compiler content.
            host = canonicalIPv6(host) ?? host
        } else {
            let name = canonicalName(host)
            if name != host {
                // Handed to curl as compared: set, then parsed again, which normalises a numeric
                // IPv4 spelling that a trailing dot hid from the first parse.
                try handle.rewrite(host: name, text: text)
                host = handle.part(CURLUPART_HOST).map(lowercasedASCII) ?? name
            }
        }
        guard !host.isEmpty else { throw TransferError(.badURL, "\"\(text)\" names no host", url: text) }
        let port = handle.part(CURLUPART_PORT).flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        return (URLTarget(url: handle.part(CURLUPART_URL) ?? text, scheme: scheme, host: host, port: port), handle)
    }

    private init(url: String, scheme: String, host: String, port: Int) {
        self.url = url
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Refuses the target unless `allowHost` grants its host: the one check every hop, every
    /// cached answer and every shared transfer goes through.
    public func checkGranted(_ allowHost: (String) -> Bool) throws(TransferError) {
        guard allowHost(host) else {
            let grant = host.contains(":") ? "[\(host)]" : host
            throw TransferError(.denied, "host \"\(host)\" is not granted to this app (add \"network:\(grant)\" to app.json grants)", url: url)
        }
    }

    /// The canonical form of a host as a `network:HOST` grant writes it, the form ``host`` is
    /// compared in: `API.Example.test.` is `api.example.test`, `127.1` is `127.0.0.1`, `[::1]`
    /// and `::1` are `::1`. Refuses what is not a bare host: a port, a user, a path, a scheme.
    public static func grantedHost(_ written: String) throws(TransferError) -> String {
        guard !written.isEmpty, !written.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f || "/?#@\\".utf8.contains($0) }) else {
            throw TransferError(.badURL, "expected a host name or address, without a scheme, user, path or spaces")
        }
        // A bare IPv6 literal (`::1`, as `network:::1` writes it) gets the brackets a URL needs.
        let bracketed = !written.hasPrefix("[") && canonicalIPv6("[\(written)]") != nil ? "[\(written)]" : written
        let target: URLTarget, handle: CurlURL
        do {
            (target, handle) = try parse("http://\(bracketed)/")
        } catch {
            throw TransferError(.badURL, "curl reads no host name or address in it")
        }
        guard handle.part(CURLUPART_PORT) == nil else {
            throw TransferError(.badURL, "a grant names a host without a port (it grants every port of the host)")
        }
        return target.host
    }

    /// `[v6]` without brackets (or a zone), as `inet_ntop` writes the address; nil when it is none.
    static func canonicalIPv6(_ bracketed: String) -> String? {
        let literal = String(bracketed.dropFirst().prefix { $0 != "]" && $0 != "%" })
        var address = in6_addr()
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_pton(AF_INET6, literal, &address) == 1, inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else {
            return nil
        }
        return String(cString: text)
    }

    /// A name lower-cased, without one trailing dot.
    static func canonicalName(_ host: String) -> String {
        let lowered = lowercasedASCII(host)
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    private static func lowercasedASCII(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5a ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// One curl URL handle, cleaned up when it goes.
private final class CurlURL {
    let handle: OpaquePointer

    init(_ text: String) throws(TransferError) {
        guard let handle = hh_url() else { throw TransferError(.badURL, "out of memory parsing a URL", url: text) }
        self.handle = handle
        try set(url: text, original: text)
    }

    deinit { hh_url_cleanup(handle) }

    func set(url: String, original: String) throws(TransferError) {
        let code = hh_url_set(handle, CURLUPART_URL, url, 0)
        guard code == CURLUE_OK else {
            throw TransferError(.badURL, "\"\(original)\" is not an absolute URL (\(String(cString: hh_url_strerror(code))))", url: original)
        }
    }

    /// Puts `host` in place of the URL's host, then parses the whole URL again.
    func rewrite(host: String, text: String) throws(TransferError) {
        let code = hh_url_set(handle, CURLUPART_HOST, host, 0)
        guard code == CURLUE_OK, let rewritten = part(CURLUPART_URL) else {
            throw TransferError(.badURL, "\"\(text)\" names no usable host", url: text)
        }
        try set(url: rewritten, original: text)
    }

    func part(_ part: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard hh_url_get(handle, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { hh_free(value) }
        return String(cString: value)
    }
}
