import Bridge
import CurlTransport
import JSON

extension TransferError {
    /// `E_DENIED` for an ungranted host, `E_BAD_PARAMS` at /url for a malformed URL (at /headers
    /// for a header, which `NetworkRequest` has refused already by its name), else `E_FAILED` with
    /// the reason and curl's message.
    var bridgeError: BridgeError {
        switch reason {
        case .denied: BridgeError(.denied, message, details: ["reason": "host", "url": url.map(JSONValue.string) ?? .null])
        case .badURL: BridgeError.badParams("/url", message)
        case .badHeader: BridgeError.badParams("/headers", message)
        default: BridgeError.failed(reason: reason.rawValue, message, details: details)
        }
    }

    /// As ``bridgeError``, naming the app's `responseBytes` quota when a body passed it.
    func bridgeError(responseQuota: Int?) -> BridgeError {
        guard reason == .bodyTooLarge, let responseQuota else { return bridgeError }
        var details = details
        details["quota"] = "responseBytes"
        details["limitBytes"] = .number(Double(responseQuota))
        return BridgeError.failed(reason: reason.rawValue,
                                  "the response body is larger than the app's quota (app.json quotas.responseBytes: \(responseQuota) bytes); the transfer was stopped there",
                                  details: details)
    }
}
