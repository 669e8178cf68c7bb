/// Why the debug adapter could not do what it was asked: a request's bad argument (naming the
/// field and what was expected), the app that would not start, the inspector that refused or went
/// away. The message goes back in the failed response, so an editor shows it as it is.
public struct DebugAdapterError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// A DAP message that is not framed or not JSON.
        case framing
        /// A request's arguments: a field missing or of the wrong type.
        case badArguments = "bad_arguments"
        /// The app did not start, or started without its inspector.
        case launch
        /// The inspector's WebSocket could not be opened, or closed.
        case inspector
        /// The inspector answered a command with an error (a script that threw, a stale id).
        case command
        /// The request needs the app paused (a frame, a scope) and it is not.
        case notPaused = "not_paused"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
