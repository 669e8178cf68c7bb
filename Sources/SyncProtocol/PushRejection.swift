import JSON

/// A pushed packet refused for good (409): which packet, why in words, and the op refused for its
/// scope when that was why. Its ``cause`` is what a client acts on: a packet refused only because
/// one before it was has its ops sent again; one op out of scope fails alone; anything else fails
/// the packet's ops.
///
/// Wire form (within ``PushAnswer``): `{"rejected": true, "packetId", "reason", "opId"?, "error"}`,
/// `error` being ``error``'s detail.
public struct PushRejection: Sendable, Equatable {
    public var packetId: String
    /// Why, in words: one of the `dependency...` texts below, or the refusal of one of its ops.
    public var reason: String
    /// The op refused for its scope (a held packet settled later), when that was why.
    public var opId: String?

    public init(packetId: String, reason: String, opId: String? = nil) {
        self.packetId = packetId
        self.reason = reason
        self.opId = opId
    }

    public enum Cause: Sendable, Equatable {
        /// The packet it depends on was rejected, never came, or is held for good.
        case dependency
        /// One op, outside the token's scopes.
        case scope(opId: String)
        /// What the packet says was refused.
        case refused
    }

    /// Read from the words for a dependency: the one place that knows their prefix, beside the
    /// texts that start with it (old servers wrote the same texts, so their answers read the same).
    public var cause: Cause {
        if let opId { return .scope(opId: opId) }
        return reason.hasPrefix(Self.dependencyPrefix) ? .dependency : .refused
    }

    /// The refusal the answer carries as `error` (a client that knows only errors reads that).
    public var error: SyncServerError {
        var error = SyncServerError(.conflict, "packet \(packetId) was rejected: \(reason)", reason: opId == nil ? nil : .scope)
        error.opId = opId
        return error
    }

    // MARK: Reasons for a dependency

    static let dependencyPrefix = "dependency "

    public static func dependencyNotReceived(_ dependency: String, holdSeconds: Double) -> String {
        "\(dependencyPrefix)\(dependency) not received within \(seconds(holdSeconds)) s"
    }

    public static func dependencyRejected(_ dependency: String) -> String {
        "\(dependencyPrefix)\(dependency) was rejected"
    }

    public static func dependencyStillHeld(_ dependency: String, holdSeconds: Double) -> String {
        "\(dependencyPrefix)\(dependency) still held after \(seconds(holdSeconds)) s"
    }

    /// `30` for whole seconds, `0.3` otherwise.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
