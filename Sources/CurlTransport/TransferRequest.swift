/// One HTTP request as the transport runs it. Plain data: the network service builds it from a
/// bridge call, the sync client from its own wire format.
public struct TransferRequest: Sendable {
    public var url: String
    /// Upper case (`GET`, `POST`...). `HEAD` asks for no body.
    public var method: String
    /// In the order given; a later header of the same name is sent too (curl does not merge).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// The whole transfer, connection included; nil for no limit.
    public var timeoutMs: Int?
    public var connectTimeoutMs: Int?
    /// A body larger than this fails with ``TransferError/Reason/bodyTooLarge``.
    public var maxBytes: Int?
    /// Follow 3xx answers (301, 302, 303, 307, 308), asking the host policy at every hop.
    public var followRedirects: Bool
    public var maxRedirects: Int
    /// Where the body goes: memory, or a file that is rewritten from the start at every hop.
    public var sink: TransferSink
    /// Called on the transport's thread as bytes arrive: (received, total when known).
    public var onProgress: (@Sendable (Int64, Int64?) -> Void)?
    /// Cookies to send, and where `Set-Cookie` answers go; none when nil.
    public var cookieJar: CookieJar?
    /// Sent as `User-Agent` when `headers` hold none of their own (curl's `CURLOPT_USERAGENT`,
    /// which costs no header line of ours); none when nil.
    public var userAgent: String?
    /// What the app says about particular hosts, asked for each hop's host (canonical, as grants
    /// compare it): pinned keys, trust anchors, addresses. nil: nothing, for any host.
    public var hostOverrides: (@Sendable (String) -> HostOverrides?)?
    /// The overrides of this hop's host, set by ``CurlClient`` from `hostOverrides`.
    var hop: HostOverrides?

    public init(url: String, method: String = "GET", headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
                timeoutMs: Int? = nil, connectTimeoutMs: Int? = nil, maxBytes: Int? = nil,
                followRedirects: Bool = true, maxRedirects: Int = 10, sink: TransferSink = .memory,
                onProgress: (@Sendable (Int64, Int64?) -> Void)? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
        self.connectTimeoutMs = connectTimeoutMs
        self.maxBytes = maxBytes
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.sink = sink
        self.onProgress = onProgress
    }
}

extension TransferRequest {
    /// RFC 9110's token characters, by byte: letters, digits and !#$%&'*+-.^_`|~. A table, since
    /// every header of every request is checked (twice when it came from params).
    private static let tokenBytes: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    /// Why `name: value` cannot go out as a request header, or nil when it can. curl sends a
    /// header line as it is given: a line break in it would start a header (or a request) of its
    /// own, and a NUL would end the C string early. ``CurlClient/perform(_:allowHost:)`` refuses
    /// such a request; callers that take headers from params check them first, to name the field.
    public static func headerProblem(name: String, value: String) -> String? {
        guard !name.isEmpty, name.utf8.allSatisfy({ tokenBytes[Int($0)] }) else {
            return "\"\(name)\" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)"
        }
        // By bytes: "\r\n" is a single Character, which a Character comparison would miss.
        guard !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
            return "header values may not contain line breaks (CR, LF) or NUL"
        }
        return nil
    }
}

/// How requests to one host differ from the defaults (`app.json` `network.hosts`).
public struct HostOverrides: Sendable, Equatable {
    /// curl's pinned public keys, `sha256//BASE64;sha256//BASE64`: the server's key must be one
    /// of them, on top of the certificate's verification.
    public var pinnedPublicKeys: String?
    /// A PEM file of the CAs that verify this host's certificate, instead of the system's.
    public var caFile: String?
    /// The addresses to connect to, in the order to try them (curl falls back along the list,
    /// happy eyeballs between IPv6 and IPv4 kept), instead of asking DNS.
    public var addresses: [String]

    public init(pinnedPublicKeys: String? = nil, caFile: String? = nil, addresses: [String] = []) {
        self.pinnedPublicKeys = pinnedPublicKeys
        self.caFile = caFile
        self.addresses = addresses
    }
}

/// Where a response body is written.
public enum TransferSink: Sendable {
    case memory
    /// An open, writable file descriptor, owned by the caller.
    case file(Int32)
    /// Read as it arrives: the final answer is handed over when its head is in, with the body in
    /// ``TransferResponse/stream`` (or, when the whole body came with the head, in `body`).
    case stream
}
