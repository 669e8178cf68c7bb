import SyncProtocol

/// A held packet whose dependency has settled, as a settle step reads it under the writer, and what
/// becomes of it, decided without a database (``SyncStoreBackend/settleNext(deviceId:now:)``).
///
/// ```swift
/// switch try ready.settlement() {
/// case .reject(let reason): // record the rejection
/// case .apply(let ops):     // apply the ops in a savepoint; a refusal that HeldPacket.rejects(_:) rejects the packet
/// }
/// ```
struct HeldPacket {
    var deviceId: String
    var packetId: String
    var dependency: String
    /// Its ops, as stored text (``StoredText/ops(_:)``).
    var ops: String?
    /// The dependency's state, as stored.
    var dependencyState: String

    enum Settlement {
        case reject(reason: String)
        case apply([SyncOperation])
    }

    /// Applied after an applied dependency, rejected after a rejected one.
    func settlement() throws -> Settlement {
        guard dependencyState == PacketState.applied.rawValue else { return .reject(reason: PushRejection.dependencyRejected(dependency)) }
        return .apply(try StoredText.heldOps(ops, packetId: packetId))
    }

    /// Whether `refusal`, thrown while the packet's ops applied, rejects the packet for good (with
    /// its message, and the op it names): a refusal of what the packet says (an op outside the
    /// device's scopes, a field that is wrong), which no retry changes. Any other error (the
    /// database's) fails the step, and a later sweep tries again.
    static func rejects(_ refusal: SyncServerError) -> Bool {
        refusal.code == .forbidden || refusal.code == .badRequest
    }
}
