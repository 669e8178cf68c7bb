import Crypto
import _CryptoExtras

/// A CryptoKey's native half for the asymmetric algorithms: the swift-crypto key, parsed once when
/// the key is generated or imported so that signing and verifying never re-parse DER, and the
/// attributes JS shows in `key.algorithm`. Immutable; the key material leaves it only through
/// `AsymmetricCrypto.export`/`exportJWK`, which JS calls for extractable keys alone.
final class AsymmetricKey: Sendable {
    /// "ECDSA", "ECDH", "Ed25519", "X25519", "Ed448", "X448", "RSA-PSS", "RSASSA-PKCS1-v1_5" or "RSA-OAEP".
    let algorithm: String
    let isPrivate: Bool
    /// EC keys: "P-256", "P-384" or "P-521".
    let namedCurve: String?
    /// RSA keys: the modulus' length in bits.
    let modulusLength: Int?
    /// RSA keys: big-endian, without leading zeros.
    let publicExponent: [UInt8]?
    let material: Material

    /// The swift-crypto key, with the public half beside a private key (swift-crypto derives it
    /// once, at import). The ECDSA and ECDH kinds of a curve are swift-crypto's Signing and
    /// KeyAgreement types. Ed448 and X448 keys, which swift-crypto does not have, are OpenSSL's.
    // @unchecked: swift-crypto's key types are immutable values (BoringSSL objects it only reads after creating them) that it does not yet mark Sendable.
    enum Material: @unchecked Sendable {
        case p256Signing(P256.Signing.PrivateKey?, P256.Signing.PublicKey)
        case p384Signing(P384.Signing.PrivateKey?, P384.Signing.PublicKey)
        case p521Signing(P521.Signing.PrivateKey?, P521.Signing.PublicKey)
        case p256Agreement(P256.KeyAgreement.PrivateKey?, P256.KeyAgreement.PublicKey)
        case p384Agreement(P384.KeyAgreement.PrivateKey?, P384.KeyAgreement.PublicKey)
        case p521Agreement(P521.KeyAgreement.PrivateKey?, P521.KeyAgreement.PublicKey)
        case ed25519(Curve25519.Signing.PrivateKey?, Curve25519.Signing.PublicKey)
        case x25519(Curve25519.KeyAgreement.PrivateKey?, Curve25519.KeyAgreement.PublicKey)
        case ed448(LibCryptoKey?, LibCryptoKey)
        case x448(LibCryptoKey?, LibCryptoKey)
        case rsaSigning(_RSA.Signing.PrivateKey?, _RSA.Signing.PublicKey)
        case rsaEncryption(_RSA.Encryption.PrivateKey?, _RSA.Encryption.PublicKey)

        var isPrivate: Bool {
            switch self {
            case .p256Signing(let key, _): key != nil
            case .p384Signing(let key, _): key != nil
            case .p521Signing(let key, _): key != nil
            case .p256Agreement(let key, _): key != nil
            case .p384Agreement(let key, _): key != nil
            case .p521Agreement(let key, _): key != nil
            case .ed25519(let key, _): key != nil
            case .x25519(let key, _): key != nil
            case .ed448(let key, _): key != nil
            case .x448(let key, _): key != nil
            case .rsaSigning(let key, _): key != nil
            case .rsaEncryption(let key, _): key != nil
            }
        }

        var namedCurve: String? {
            switch self {
            case .p256Signing, .p256Agreement: "P-256"
            case .p384Signing, .p384Agreement: "P-384"
            case .p521Signing, .p521Agreement: "P-521"
            default: nil
            }
        }

        /// The same key without its private half.
        var publicOnly: Material {
            switch self {
            case .p256Signing(_, let key): .p256Signing(nil, key)
            case .p384Signing(_, let key): .p384Signing(nil, key)
            case .p521Signing(_, let key): .p521Signing(nil, key)
            case .p256Agreement(_, let key): .p256Agreement(nil, key)
            case .p384Agreement(_, let key): .p384Agreement(nil, key)
            case .p521Agreement(_, let key): .p521Agreement(nil, key)
            case .ed25519(_, let key): .ed25519(nil, key)
            case .x25519(_, let key): .x25519(nil, key)
            case .ed448(_, let key): .ed448(nil, key)
            case .x448(_, let key): .x448(nil, key)
            case .rsaSigning(_, let key): .rsaSigning(nil, key)
            case .rsaEncryption(_, let key): .rsaEncryption(nil, key)
            }
        }
    }

    /// `rsaNumbers`: an RSA key's modulus and public exponent, big-endian, for `modulusLength` and
    /// `publicExponent`.
    init(algorithm: String, material: Material, rsaNumbers: (n: [UInt8], e: [UInt8])? = nil) {
        self.algorithm = algorithm
        self.material = material
        isPrivate = material.isPrivate
        namedCurve = material.namedCurve
        if let rsaNumbers {
            let n = rsaNumbers.n.drop { $0 == 0 }
            modulusLength = n.isEmpty ? 0 : n.count * 8 - n.first!.leadingZeroBitCount
            publicExponent = Array(rsaNumbers.e.drop { $0 == 0 })
        } else {
            modulusLength = nil
            publicExponent = nil
        }
    }

    private init(publicHalfOf key: AsymmetricKey) {
        algorithm = key.algorithm
        material = key.material.publicOnly
        isPrivate = false
        namedCurve = key.namedCurve
        modulusLength = key.modulusLength
        publicExponent = key.publicExponent
    }

    /// The key itself when public; a private key's public half.
    func publicKey() -> AsymmetricKey {
        isPrivate ? AsymmetricKey(publicHalfOf: self) : self
    }
}
