/// A view JSON that cannot be used: where (a JSON Pointer into the view) and what was expected.
///
/// `/children/2/style/border: expected one of none, single, double, rounded, heavy`
public struct ViewDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer into the document the error is about ("" for its root).
    public var path: String
    public var message: String
    /// Set when the view expanded past this many nodes (the app's `viewNodes` quota): the view is
    /// well formed, its data too large for it.
    public var nodeLimit: Int?

    public init(_ path: String, _ message: String, nodeLimit: Int? = nil) {
        self.path = path
        self.message = message
        self.nodeLimit = nodeLimit
    }

    public var description: String { "\(path.isEmpty ? "/" : path): \(message)" }
}
