import SyncAuth
import SyncProtocol

extension SyncServerError.Reason {
    /// A token's refusal reason on the wire (401): one for one, so that a reason SyncAuth adds does
    /// not compile until the protocol has it too.
    init(_ token: TokenError.Reason) {
        switch token {
        case .missing: self = .missing
        case .malformed: self = .malformed
        case .algorithm: self = .algorithm
        case .signature: self = .signature
        case .expired: self = .expired
        case .notYetValid: self = .notYetValid
        case .claims: self = .claims
        case .key: self = .key
        }
    }
}
