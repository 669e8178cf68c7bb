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
}
