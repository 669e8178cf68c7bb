import Bridge
import JSON

extension TransferError {
    /// `E_DENIED` for an ungranted host, `E_BAD_PARAMS` at /url for a malformed URL, else
    /// `E_FAILED` with the reason and curl's message.
    public var bridgeError: BridgeError {
        switch reason {
        case .denied:
            return BridgeError(.denied, message, details: ["reason": "host", "url": url.map(JSONValue.string) ?? .null])
        case .badURL:
            return BridgeError.badParams("/url", message)
        default:
            var details: JSONObject = [:]
            if let curlCode { details["curlCode"] = .number(Double(curlCode)) }
            if let url { details["url"] = .string(url) }
            return BridgeError.failed(reason: reason.rawValue, message, details: details)
        }
    }
}
