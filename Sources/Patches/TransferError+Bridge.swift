import Bridge
import CurlTransport
import JSON

extension TransferError {
    /// How a failed `patch.check` fetch reaches JS: as the network service reports the same
    /// failure (`E_DENIED` for an ungranted host, `E_BAD_PARAMS` at the `url` param, else
    /// `E_FAILED` with the reason and curl's message).
    var bridgeError: BridgeError {
        switch reason {
        case .denied: BridgeError(.denied, message, details: ["reason": "host", "url": url.map(JSONValue.string) ?? .null])
        case .badURL: BridgeError.badParams("/url", message)
        default: BridgeError.failed(reason: reason.rawValue, message, details: details)
        }
    }
}
