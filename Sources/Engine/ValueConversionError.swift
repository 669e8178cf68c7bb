/// Why a JS value could not become a ``JSON/JSONValue``: the bridge turns these into `E_BAD_PARAMS`
/// (with `path`) or `E_TOO_LARGE`.
public struct ValueConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nested deeper than ``JSValueLimits/maximumDepth``, or a cycle.
        case tooDeep
        /// Larger than ``JSValueLimits/maximumBytes``.
        case tooLarge
        /// A string holding a lone UTF-16 surrogate, which has no UTF-8 form.
        case loneSurrogate
        /// A value with no JSON form: a BigInt, a symbol, a non-byte typed array.
        case unsupported(String)
        /// Reading the member threw (a getter's or a Proxy's exception, as its text): as
        /// `JSON.stringify` and `structuredClone` do, the call fails rather than leaving it out.
        case threw(String)
    }

    public let kind: Kind
    /// JSON Pointer to the offending value, relative to the converted root.
    public let path: String

    public var message: String {
        switch kind {
        case .tooDeep: "nested deeper than \(JSValueLimits.maximumDepth) levels (or circular)"
        case .tooLarge: "larger than \(JSValueLimits.maximumBytes / (1024 * 1024)) MiB"
        case .loneSurrogate: "string holds a lone UTF-16 surrogate; expected well-formed Unicode"
        case .unsupported(let what): "\(what) cannot cross the bridge; expected a JSON value, Uint8Array or ArrayBuffer"
        case .threw(let exception): "reading it threw \(exception); expected a value to send"
        }
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Bounds on what crosses from JS into Swift.
public enum JSValueLimits {
    public static let maximumDepth = 256
    public static let maximumBytes = 16 * 1024 * 1024
}
