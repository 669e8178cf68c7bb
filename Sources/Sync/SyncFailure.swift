import Bridge
import Persistence

/// How the sync service reports its lower layers' failures: the replica's bookkeeping lives in
/// the app's database, so its errors are ``PersistenceError``s (bad input at a params path, or a
/// failure with a reason); the transport's are mapped where requests are sent
/// (``SyncServerClient/bridgeError(_:)``).
enum SyncFailure {
    static func bridgeError(_ error: any Error) -> BridgeError {
        switch PersistenceError.wrap(error) {
        case .invalid(let path, let message): .badParams(path, message)
        case .failed(let reason, let message, let details): .failed(reason: reason, message, details: details)
        }
    }
}

func bridged<T>(_ body: () throws -> T) throws(BridgeError) -> T {
    try BridgeError.mapping(SyncFailure.bridgeError, body)
}
