import Crypto

/// What a CryptoKey holds in native memory: a secret key's bytes (HMAC, AES, PBKDF2, HKDF) or an
/// asymmetric key. JS keeps only this handle (a host object, opaque to scripts); the material
/// crosses into JS through `exportKey` alone, and JS allows that for extractable keys only.
/// Immutable, so a structured clone of a CryptoKey shares it.
final class WebCryptoKeyHandle: Sendable {
    enum Material: Sendable {
        case secret(Secret)
        case asymmetric(AsymmetricKey)
    }

    let material: Material

    init(secret bytes: [UInt8]) {
        material = .secret(Secret(bytes))
    }

    init(asymmetric key: AsymmetricKey) {
        material = .asymmetric(key)
    }

    /// The secret key's bytes, or an InvalidAccessError naming `what` needed them.
    func secret(for what: String) throws(WebCryptoError) -> Secret {
        guard case .secret(let bytes) = material else { throw .invalidAccess("\(what): expected a secret key") }
        return bytes
    }

    func asymmetric(for what: String) throws(WebCryptoError) -> AsymmetricKey {
        guard case .asymmetric(let key) = material else { throw .invalidAccess("\(what): expected a public or private key") }
        return key
    }

    /// A secret key's bytes, with the swift-crypto key made from them once.
    // @unchecked: SymmetricKey is an immutable value swift-crypto does not yet mark Sendable.
    struct Secret: @unchecked Sendable {
        let bytes: [UInt8]
        let key: SymmetricKey

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            key = SymmetricKey(data: bytes)
        }
    }
}
