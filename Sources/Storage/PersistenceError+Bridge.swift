import Bridge
import Persistence

extension PersistenceError {
    /// The error JS receives: bad input becomes `E_BAD_PARAMS` at its path, anything else `E_FAILED`
    /// with `details.reason`.
    var bridgeError: BridgeError {
        switch self {
        case .invalid(let path, let message): BridgeError.badParams(path, message)
        case .failed(let reason, let message, let details): BridgeError.failed(reason: reason, message, details: details)
        }
    }

    /// Any error from the storage layers (GRDB's included), as the bridge reports it.
    static func bridgeError(_ error: any Error) -> BridgeError { wrap(error).bridgeError }
}

/// Runs `body`, turning a storage-layer error into the bridge's error.
func bridged<T>(_ body: () throws -> T) throws(BridgeError) -> T {
    try BridgeError.mapping(PersistenceError.bridgeError, body)
}

func bridged<T>(_ body: () async throws -> T) async throws(BridgeError) -> T {
    try await BridgeError.mapping(PersistenceError.bridgeError, body)
}
