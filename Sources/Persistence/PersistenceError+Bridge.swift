import Bridge

extension PersistenceError {
    /// The error JS receives: bad input becomes `E_BAD_PARAMS` at its path, anything else `E_FAILED`
    /// with `details.reason`.
    public var bridgeError: BridgeError {
        switch self {
        case .invalid(let path, let message): BridgeError.badParams(path, message)
        case .failed(let reason, let message, let details): BridgeError.failed(reason: reason, message, details: details)
        }
    }
}

/// Runs `body`, turning a ``PersistenceError`` into the bridge's error.
public func bridged<T>(_ body: () throws -> T) throws(BridgeError) -> T {
    do { return try body() } catch { throw bridgeError(error) }
}

public func bridged<T>(_ body: () async throws -> T) async throws(BridgeError) -> T {
    do { return try await body() } catch { throw bridgeError(error) }
}

public func bridgeError(_ error: any Error) -> BridgeError {
    if let error = error as? BridgeError { return error }
    return PersistenceError.wrap(error).bridgeError
}
