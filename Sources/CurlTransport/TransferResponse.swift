/// A finished HTTP exchange. Any status is a response: 404 and 500 are answers, not errors.
public struct TransferResponse: Sendable {
    public var status: Int
    /// Names lower-cased, in the order received, repeated names kept.
    public var headers: [(name: String, value: String)]
    /// The reason phrase of the status line (`Not Found`); empty over HTTP/2.
    public var statusText: String
    /// The HTTP version the answer came over: "1.0", "1.1", "2" or "3" ("" when unknown, as for
    /// an answer from a cache).
    public var httpVersion = ""
    /// Empty when the body went to a file, or still arrives in `stream`.
    public var body: [UInt8]
    /// For ``TransferSink/stream``: the rest of the body, when it had not all arrived with the head.
    public var stream: ResponseBodyStream?
    /// The URL that answered, after redirects.
    public var url: String
    public var timing: TransferTiming
    /// The body's size, also when it went to a file (so far, when it still arrives in `stream`).
    public var bodySize: Int64

    public init(status: Int, statusText: String = "", headers: [(name: String, value: String)], body: [UInt8], url: String,
                timing: TransferTiming, bodySize: Int64, stream: ResponseBodyStream? = nil) {
        self.status = status
        self.statusText = statusText
        self.stream = stream
        self.headers = headers
        self.body = body
        self.url = url
        self.timing = timing
        self.bodySize = bodySize
    }

    /// The statuses a redirect answers with, when it carries a Location: what ``CurlClient``
    /// follows, and what fetch's `redirect: "error"` refuses.
    public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}

/// Where the time went, in milliseconds.
public struct TransferTiming: Sendable, Equatable {
    /// From the first request to the last byte of the final answer, redirects included.
    public var totalMs: Double
    /// Until the final hop's connection was ready (0 for a reused connection).
    public var connectMs: Double
    /// Until the final hop's first response byte.
    public var firstByteMs: Double
    /// How long the caller waited before the transfer began, behind limits of its own (the network
    /// service's queue): not part of `totalMs`. The transport leaves it 0.
    public var queuedMs: Double
    /// Each attempt of a request sent more than once (the network service's retries), in order;
    /// empty when it was not asked to retry. The transport leaves it empty.
    public var attempts: [Attempt] = []

    /// What one attempt came to.
    public struct Attempt: Sendable, Equatable {
        /// The status answered, or nil for a failure.
        public var status: Int?
        /// The failure's reason (connect, timeout...), or nil for an answer.
        public var reason: String?
        public var ms: Double
        /// The wait after it, before the next attempt (0 for the last).
        public var waitMs: Double

        public init(status: Int? = nil, reason: String? = nil, ms: Double, waitMs: Double = 0) {
            self.status = status
            self.reason = reason
            self.ms = ms
            self.waitMs = waitMs
        }
    }

    public init(totalMs: Double, connectMs: Double, firstByteMs: Double, queuedMs: Double = 0) {
        self.totalMs = totalMs
        self.connectMs = connectMs
        self.firstByteMs = firstByteMs
        self.queuedMs = queuedMs
    }
}
