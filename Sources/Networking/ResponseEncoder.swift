import Bridge
import CurlTransport
import HTTPCaching
import JSON

/// Turns a transport response into what JS receives: `{status, headers, body, url, timing}`.
enum ResponseEncoder {
    static func json(_ response: TransferResponse, as type: NetworkRequest.ResponseType?, cache: String? = nil) throws(BridgeError) -> JSONValue {
        var object = JSONObject(minimumCapacity: 6)
        object.appendUnique("status", .number(Double(response.status)))
        object.appendUnique("headers", .object(headers(response.headers)))
        object.appendUnique("body", try body(response, as: type ?? inferredType(response)))
        object.appendUnique("url", .string(response.url))
        object.appendUnique("httpVersion", .string(response.httpVersion))
        object.appendUnique("timing", timing(response.timing))
        if let cache { object.appendUnique("cache", .string(cache)) }
        return .object(object)
    }

    /// Header names lower-cased; repeated headers joined with ", " as fetch's Headers does.
    static func headers(_ headers: [(name: String, value: String)]) -> JSONObject {
        var object = JSONObject(minimumCapacity: headers.count)
        for (name, value) in headers {
            if let earlier = object[name]?.stringValue {
                object[name] = .string(earlier + ", " + value)
            } else {
                object.appendUnique(name, .string(value))
            }
        }
        return object
    }

    /// `queuedMs` is how long the call waited to start (``TransferQueue``), beside the transfer's own times.
    static func timing(_ timing: TransferTiming) -> JSONValue {
        var object: JSONObject = ["totalMs": .number(rounded(timing.totalMs)), "connectMs": .number(rounded(timing.connectMs)),
                                  "firstByteMs": .number(rounded(timing.firstByteMs)), "queuedMs": .number(rounded(timing.queuedMs))]
        if !timing.attempts.isEmpty { object["attempts"] = attempts(timing.attempts) }
        return .object(object)
    }

    /// `timing.attempts`: `{status | reason, ms, waitMs}` each.
    static func attempts(_ attempts: [TransferTiming.Attempt]) -> JSONValue {
        .array(attempts.map { attempt in
            var object: JSONObject = ["ms": .number(rounded(attempt.ms)), "waitMs": .number(attempt.waitMs.rounded())]
            if let status = attempt.status { object["status"] = .number(Double(status)) }
            if let reason = attempt.reason { object["reason"] = .string(reason) }
            return .object(object)
        })
    }

    private static func rounded(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }

    private static func inferredType(_ response: TransferResponse) -> NetworkRequest.ResponseType {
        let media = (response.header("content-type") ?? "").lowercased().split(separator: ";").first.map(String.init) ?? ""
        let trimmed = media.trimmingCharacters(in: " \t")
        return trimmed == "application/json" || trimmed.hasSuffix("+json") ? .json : .text
    }

    private static func body(_ response: TransferResponse, as type: NetworkRequest.ResponseType) throws(BridgeError) -> JSONValue {
        switch type {
        case .bytes:
            return .bytes(response.body)
        case .text:
            return .string(String(decoding: response.body, as: UTF8.self))
        case .json:
            if response.body.isEmpty { return .null }
            do {
                return try JSONParser.parse(response.body)
            } catch {
                throw BridgeError.failed(reason: "protocol", "the response body (status \(response.status)) is not JSON: \(error); ask for responseType \"text\" to read it",
                                         details: ["status": .number(Double(response.status))])
            }
        }
    }
}
