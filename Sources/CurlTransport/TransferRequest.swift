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

/// Where a response body is written.
public enum TransferSink: Sendable {
    case memory
    /// An open, writable file descriptor, owned by the caller.
    case file(Int32)
}
