import Crypto
import _CryptoExtras

/// The digest algorithms WebCrypto names ("SHA-1", "SHA-256", "SHA-384", "SHA-512"), as JS passes
/// them after normalization, and what each gives the symmetric algorithms built on it.
enum WebCryptoHash: String, Sendable {
    case sha1 = "SHA-1"
    case sha256 = "SHA-256"
    case sha384 = "SHA-384"
    case sha512 = "SHA-512"

    init(name: String) throws(WebCryptoError) {
        guard let hash = WebCryptoHash(rawValue: name) else { throw .notSupported("expected SHA-1, SHA-256, SHA-384 or SHA-512, got \(name)") }
        self = hash
    }

    /// Bytes of output.
    var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .sha512: Array(SHA512.hash(data: bytes))
        }
    }

    func hmac(key: SymmetricKey, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        switch self {
        case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: bytes, using: key))
        case .sha256: Array(HMAC<SHA256>.authenticationCode(for: bytes, using: key))
        case .sha384: Array(HMAC<SHA384>.authenticationCode(for: bytes, using: key))
        case .sha512: Array(HMAC<SHA512>.authenticationCode(for: bytes, using: key))
        }
    }

    func hkdf(key: SymmetricKey, salt: [UInt8], info: [UInt8], byteCount: Int) -> [UInt8] {
        let derived = switch self {
        case .sha1: HKDF<Insecure.SHA1>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
        case .sha256: HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
        case .sha384: HKDF<SHA384>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
        case .sha512: HKDF<SHA512>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: byteCount)
        }
        return derived.withUnsafeBytes { Array($0) }
    }

    var pbkdf2: KDF.Insecure.PBKDF2.HashFunction {
        switch self {
        case .sha1: .insecureSHA1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}
