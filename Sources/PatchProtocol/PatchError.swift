/// Why a patch was refused or failed, with a stable code. A refusal changes nothing: the app keeps
/// running the code it had, and the ledger in the data dir is left as it was.
public struct PatchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not a patch: a field is missing or has the wrong type.
        case malformed
        /// Made for another app.
        case wrongApp = "wrong_app"
        /// Signed by a key that is not among app.json's patchKeys.
        case unknownKey = "unknown_key"
        /// The signature does not verify over the canonical manifest.
        case badSignature = "bad_signature"
        /// A module's source does not match its sha256 in the manifest.
        case badHash = "bad_hash"
        /// `patchVersion` not greater than every version seen: a downgrade or a replay.
        case stale
        /// `baseVersion` is not the app's version.
        case wrongBase = "wrong_base"
        /// Past its `expires`.
        case expired
        /// A module the patch names is not part of the app.
        case unknownModule = "unknown_module"
        /// A module's source does not compile.
        case syntax
        /// `replace` of a module that has not called `module.hot.accept()`.
        case notAccepted = "not_accepted"
        /// A patched module threw while loading (the patch is rolled back).
        case threw
        /// Reading or writing the data dir failed.
        case storage
        /// Nothing to do (no patch to confirm or roll back).
        case nothing
        /// The publisher revoked this version (a verified revocation): it never applies again.
        case revoked
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
