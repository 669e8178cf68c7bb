import Engine

/// Thrown by every WebCrypto native: `name` is the DOMException name JS throws
/// ("OperationError", "DataError", "NotSupportedError", ...), `message` says what was expected.
struct WebCryptoError: Error, Sendable {
    let name: String
    let message: String

    init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The spec's catch-all for a primitive that failed (a wrong tag, bad padding, ...).
    static func operation(_ message: String) -> WebCryptoError { WebCryptoError(name: "OperationError", message: message) }
    /// Key material or input that does not parse or does not fit the algorithm.
    static func data(_ message: String) -> WebCryptoError { WebCryptoError(name: "DataError", message: message) }
    /// An algorithm, curve or format the host does not implement.
    static func notSupported(_ message: String) -> WebCryptoError { WebCryptoError(name: "NotSupportedError", message: message) }
    /// A key used for something its algorithm or usages forbid.
    static func invalidAccess(_ message: String) -> WebCryptoError { WebCryptoError(name: "InvalidAccessError", message: message) }
}
