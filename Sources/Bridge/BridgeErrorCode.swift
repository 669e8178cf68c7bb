/// The bridge's stable error codes. JS sees them as `error.code`.
public enum BridgeErrorCode: String, Sendable, CaseIterable, Codable {
    case unknownTarget = "E_UNKNOWN_TARGET"
    case unknownAction = "E_UNKNOWN_ACTION"
    case badParams = "E_BAD_PARAMS"
    case denied = "E_DENIED"
    case failed = "E_FAILED"
    case timeout = "E_TIMEOUT"
    case cancelled = "E_CANCELLED"
    case tooLarge = "E_TOO_LARGE"
    case shutdown = "E_SHUTDOWN"
    /// The app has as many calls in flight as its quota allows (`app.json` `quotas.callsInFlight`).
    case tooMany = "E_TOO_MANY"
}
