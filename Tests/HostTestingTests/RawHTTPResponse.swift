/// One HTTP/1.1 response read whole by `RawHTTPClient`.
struct RawHTTPResponse: Sendable {
    let status: Int
    /// Field names lower-cased; the last value wins.
    let headers: [String: String]
    /// The body, chunked encoding undone.
    let body: [UInt8]
    /// Whatever came after the end of the message before the close: it should be nothing.
    let trailing: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}
