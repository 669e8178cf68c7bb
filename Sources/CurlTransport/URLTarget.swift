import CCurl

/// An absolute http(s) URL taken apart by curl's own parser, so that the host a grant is checked
/// against is exactly the host curl will connect to.
public struct URLTarget: Sendable, Equatable {
    /// The URL as curl normalised it.
    public let url: String
    public let scheme: String
    /// Lower case, without the brackets of an IPv6 literal.
    public let host: String

    public init(_ text: String) throws(TransferError) {
        guard let handle = hh_url() else { throw TransferError(.badURL, "out of memory parsing a URL", url: text) }
        defer { hh_url_cleanup(handle) }
        let code = hh_url_set(handle, CURLUPART_URL, text, 0)
        guard code == CURLUE_OK else {
            throw TransferError(.badURL, "\"\(text)\" is not an absolute URL (\(String(cString: hh_url_strerror(code))))", url: text)
        }
        let scheme = (Self.part(handle, CURLUPART_SCHEME) ?? "").lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw TransferError(.badURL, "\"\(text)\": expected an http or https URL, got scheme \"\(scheme)\"", url: text)
        }
        guard var host = Self.part(handle, CURLUPART_HOST), !host.isEmpty else {
            throw TransferError(.badURL, "\"\(text)\" names no host", url: text)
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host.lowercased()
        self.url = Self.part(handle, CURLUPART_URL) ?? text
    }

    /// Refuses the target unless `allowHost` grants its host: the one check every hop, every
    /// cached answer and every shared transfer goes through.
    public func checkGranted(_ allowHost: (String) -> Bool) throws(TransferError) {
        guard allowHost(host) else {
            throw TransferError(.denied, "host \"\(host)\" is not granted to this app (add \"network:\(host)\" to app.json grants)", url: url)
        }
    }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard hh_url_get(handle, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { hh_free(value) }
        return String(cString: value)
    }
}
