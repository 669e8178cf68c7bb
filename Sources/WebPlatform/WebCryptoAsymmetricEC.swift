import Crypto
import Foundation

/// swift-crypto's P-256, P-384 and P-521 private keys (Signing and KeyAgreement alike) as one
/// generic shape, so that each step is written once for the six types.
protocol AsymmetricNISTPrivateKey {
    associatedtype PublicKey: AsymmetricNISTPublicKey
    init(compactRepresentable: Bool)
    init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws
    var rawRepresentation: Data { get }
    var publicKey: PublicKey { get }
}

protocol AsymmetricNISTPublicKey {
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    init<Bytes: ContiguousBytes>(compressedRepresentation: Bytes) throws
    var x963Representation: Data { get }
}

/// ECDSA with the signature as IEEE P1363 `r || s`, WebCrypto's form (swift-crypto's `rawRepresentation`).
protocol AsymmetricECDSAPrivateKey: AsymmetricNISTPrivateKey {
    func p1363Signature<D: Digest>(for digest: D) throws -> Data
}

protocol AsymmetricECDSAPublicKey: AsymmetricNISTPublicKey {
    func isValidP1363Signature<D: Digest>(_ signature: [UInt8], for digest: D) -> Bool
}

protocol AsymmetricECDHPrivateKey: AsymmetricNISTPrivateKey {
    func sharedSecret(with publicKey: PublicKey) throws -> [UInt8]
}

extension P256.Signing.PrivateKey: AsymmetricECDSAPrivateKey {
    func p1363Signature<D: Digest>(for digest: D) throws -> Data { try signature(for: digest).rawRepresentation }
}
extension P384.Signing.PrivateKey: AsymmetricECDSAPrivateKey {
    func p1363Signature<D: Digest>(for digest: D) throws -> Data { try signature(for: digest).rawRepresentation }
}
extension P521.Signing.PrivateKey: AsymmetricECDSAPrivateKey {
    func p1363Signature<D: Digest>(for digest: D) throws -> Data { try signature(for: digest).rawRepresentation }
}
extension P256.Signing.PublicKey: AsymmetricECDSAPublicKey {
    func isValidP1363Signature<D: Digest>(_ signature: [UInt8], for digest: D) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}
extension P384.Signing.PublicKey: AsymmetricECDSAPublicKey {
    func isValidP1363Signature<D: Digest>(_ signature: [UInt8], for digest: D) -> Bool {
        guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}
extension P521.Signing.PublicKey: AsymmetricECDSAPublicKey {
    func isValidP1363Signature<D: Digest>(_ signature: [UInt8], for digest: D) -> Bool {
        guard let signature = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return isValidSignature(signature, for: digest)
    }
}
extension P256.KeyAgreement.PrivateKey: AsymmetricECDHPrivateKey {
    func sharedSecret(with publicKey: P256.KeyAgreement.PublicKey) throws -> [UInt8] {
        try sharedSecretFromKeyAgreement(with: publicKey).withUnsafeBytes { Array($0) }
    }
}
extension P384.KeyAgreement.PrivateKey: AsymmetricECDHPrivateKey {
    func sharedSecret(with publicKey: P384.KeyAgreement.PublicKey) throws -> [UInt8] {
        try sharedSecretFromKeyAgreement(with: publicKey).withUnsafeBytes { Array($0) }
    }
}
extension P521.KeyAgreement.PrivateKey: AsymmetricECDHPrivateKey {
    func sharedSecret(with publicKey: P521.KeyAgreement.PublicKey) throws -> [UInt8] {
        try sharedSecretFromKeyAgreement(with: publicKey).withUnsafeBytes { Array($0) }
    }
}
extension P256.Signing.PublicKey: AsymmetricNISTPublicKey {}
extension P384.Signing.PublicKey: AsymmetricNISTPublicKey {}
extension P521.Signing.PublicKey: AsymmetricNISTPublicKey {}
extension P256.KeyAgreement.PublicKey: AsymmetricNISTPublicKey {}
extension P384.KeyAgreement.PublicKey: AsymmetricNISTPublicKey {}
extension P521.KeyAgreement.PublicKey: AsymmetricNISTPublicKey {}

struct ECDSASigner<Key: AsymmetricECDSAPrivateKey>: AsymmetricDigestConsumer {
    let key: Key
    func consume<D: Digest>(_ digest: D) throws -> [UInt8] { Array(try key.p1363Signature(for: digest)) }
}

struct ECDSAVerifier<Key: AsymmetricECDSAPublicKey>: AsymmetricDigestConsumer {
    let key: Key
    let signature: [UInt8]
    func consume<D: Digest>(_ digest: D) -> Bool { key.isValidP1363Signature(signature, for: digest) }
}

/// The elliptic-curve algorithms' steps: ECDSA and ECDH over P-256/384/521, Ed25519, X25519, and
/// Ed448 and X448 over OpenSSL's libcrypto (`LibCrypto`), since swift-crypto has no Curve448.
extension AsymmetricCrypto {
    static let curveNames = ["P-256", "P-384", "P-521"]

    /// The byte length of a curve's field elements (a coordinate, a private scalar).
    static func coordinateLength(_ curve: String) -> Int {
        switch curve {
        case "P-256": 32
        case "P-384": 48
        default: 66
        }
    }

    static func checkCurve(_ namedCurve: String?, for algorithm: String) throws(WebCryptoError) -> String {
        guard let namedCurve, curveNames.contains(namedCurve) else {
            throw .notSupported("\(algorithm): expected the namedCurve P-256, P-384 or P-521, got \(namedCurve ?? "none")")
        }
        return namedCurve
    }

    /// A new ECDSA or ECDH key pair's private key.
    static func generateEC(algorithm: String, curve: String) -> AsymmetricKey.Material {
        func pair<Key: AsymmetricNISTPrivateKey>(_: Key.Type) -> (Key, Key.PublicKey) {
            let key = Key(compactRepresentable: false)
            return (key, key.publicKey)
        }
        switch (algorithm, curve) {
        case ("ECDSA", "P-256"): let (key, pub) = pair(P256.Signing.PrivateKey.self); return .p256Signing(key, pub)
        case ("ECDSA", "P-384"): let (key, pub) = pair(P384.Signing.PrivateKey.self); return .p384Signing(key, pub)
        case ("ECDSA", _): let (key, pub) = pair(P521.Signing.PrivateKey.self); return .p521Signing(key, pub)
        case (_, "P-256"): let (key, pub) = pair(P256.KeyAgreement.PrivateKey.self); return .p256Agreement(key, pub)
        case (_, "P-384"): let (key, pub) = pair(P384.KeyAgreement.PrivateKey.self); return .p384Agreement(key, pub)
        default: let (key, pub) = pair(P521.KeyAgreement.PrivateKey.self); return .p521Agreement(key, pub)
        }
    }

    /// An ECDSA or ECDH key from its private scalar `d` (big-endian, the curve's length) and/or its
    /// public point (SEC 1: uncompressed `04 || x || y`, or compressed). With both, the point must
    /// be the one `d` gives.
    static func ecKey(algorithm: String, curve: String, d: [UInt8]?, point: [UInt8]?, format: String) throws(WebCryptoError) -> AsymmetricKey.Material {
        func parts<Key: AsymmetricNISTPrivateKey>(_: Key.Type) throws(WebCryptoError) -> (Key?, Key.PublicKey) {
            let length = coordinateLength(curve)
            var publicKey: Key.PublicKey?
            if let point {
                do {
                    if point.count == 1 + 2 * length, point.first == 4 {
                        publicKey = try Key.PublicKey(x963Representation: point)
                    } else if point.count == 1 + length, point.first == 2 || point.first == 3 {
                        publicKey = try Key.PublicKey(compressedRepresentation: point)
                    } else {
                        throw WebCryptoError.data("")
                    }
                } catch {
                    throw .data("\(format): expected a \(curve) public point (\(1 + 2 * length) bytes uncompressed or \(1 + length) compressed), got \(point.count) bytes that are not one")
                }
            }
            guard let d else { return (nil, publicKey!) }
            guard d.count == length else { throw .data("\(format): expected a \(curve) private key of \(length) bytes, got \(d.count)") }
            let key: Key
            do { key = try Key(rawRepresentation: d) } catch { throw .data("\(format): the \(curve) private key is out of range") }
            if let publicKey, publicKey.x963Representation != key.publicKey.x963Representation {
                throw .data("\(format): the \(curve) public key is not the private key's")
            }
            return (key, key.publicKey)
        }
        switch (algorithm, curve) {
        case ("ECDSA", "P-256"): let (key, pub) = try parts(P256.Signing.PrivateKey.self); return .p256Signing(key, pub)
        case ("ECDSA", "P-384"): let (key, pub) = try parts(P384.Signing.PrivateKey.self); return .p384Signing(key, pub)
        case ("ECDSA", _): let (key, pub) = try parts(P521.Signing.PrivateKey.self); return .p521Signing(key, pub)
        case (_, "P-256"): let (key, pub) = try parts(P256.KeyAgreement.PrivateKey.self); return .p256Agreement(key, pub)
        case (_, "P-384"): let (key, pub) = try parts(P384.KeyAgreement.PrivateKey.self); return .p384Agreement(key, pub)
        default: let (key, pub) = try parts(P521.KeyAgreement.PrivateKey.self); return .p521Agreement(key, pub)
        }
    }

    /// The length of an Ed25519, X25519, Ed448 or X448 private or public key, in bytes.
    static func okpKeyLength(_ algorithm: String) -> Int {
        switch algorithm {
        case "Ed448": 57
        case "X448": 56
        default: 32
        }
    }

    /// An Ed25519, X25519, Ed448 or X448 key from its private key and/or public key (RFC 8032's and
    /// RFC 7748's bytes). With both, the public key must be the private key's.
    static func okpKey(algorithm: String, privateKey: [UInt8]?, publicKey: [UInt8]?, format: String) throws(WebCryptoError) -> AsymmetricKey.Material {
        let length = okpKeyLength(algorithm)
        for (name, bytes) in [("private", privateKey), ("public", publicKey)] {
            if let bytes, bytes.count != length {
                throw .data("\(format): expected an \(algorithm) \(name) key of \(length) bytes, got \(bytes.count)")
            }
        }
        if algorithm == "Ed448" || algorithm == "X448" {
            return try curve448Key(algorithm == "Ed448" ? .ed448 : .x448, privateKey: privateKey, publicKey: publicKey, format: format)
        }
        do {
            if algorithm == "Ed25519" {
                let key = try privateKey.map { try Curve25519.Signing.PrivateKey(rawRepresentation: $0) }
                let derived = try key?.publicKey ?? Curve25519.Signing.PublicKey(rawRepresentation: publicKey!)
                if let publicKey, Array(derived.rawRepresentation) != publicKey { throw WebCryptoError.data("\(format): the Ed25519 public key is not the private key's") }
                return .ed25519(key, derived)
            } else {
                let key = try privateKey.map { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }
                let derived = try key?.publicKey ?? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey!)
                if let publicKey, Array(derived.rawRepresentation) != publicKey { throw WebCryptoError.data("\(format): the X25519 public key is not the private key's") }
                return .x25519(key, derived)
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .data("\(format): not a valid \(algorithm) key: \(error)")
        }
    }

    static func curve448Key(_ curve: LibCrypto.Curve448, privateKey: [UInt8]?, publicKey: [UInt8]?,
                            format: String) throws(WebCryptoError) -> AsymmetricKey.Material {
        let key: LibCryptoKey?, derived: LibCryptoKey
        do throws(WebCryptoError) {
            if let privateKey {
                key = try LibCrypto.key(curve, bytes: privateKey, isPrivate: true)
                derived = try LibCrypto.publicKey(curve, of: key!)
            } else {
                key = nil
                derived = try LibCrypto.key(curve, bytes: publicKey!, isPrivate: false)
            }
        } catch {
            throw .data("\(format): \(error.message)")
        }
        if let publicKey, LibCrypto.rawPublicKey(derived) != publicKey {
            throw .data("\(format): the \(curve.name) public key is not the private key's")
        }
        return curve == .ed448 ? .ed448(key, derived) : .x448(key, derived)
    }

    static func ecdsaSign(_ material: AsymmetricKey.Material, hash: WebCryptoHash, data: [UInt8]) throws -> [UInt8]? {
        switch material {
        case .p256Signing(let key?, _): try hash.digest(data, into: ECDSASigner(key: key))
        case .p384Signing(let key?, _): try hash.digest(data, into: ECDSASigner(key: key))
        case .p521Signing(let key?, _): try hash.digest(data, into: ECDSASigner(key: key))
        default: nil
        }
    }

    static func ecdsaVerify(_ material: AsymmetricKey.Material, hash: WebCryptoHash, signature: [UInt8], data: [UInt8]) throws -> Bool? {
        switch material {
        case .p256Signing(nil, let key): try hash.digest(data, into: ECDSAVerifier(key: key, signature: signature))
        case .p384Signing(nil, let key): try hash.digest(data, into: ECDSAVerifier(key: key, signature: signature))
        case .p521Signing(nil, let key): try hash.digest(data, into: ECDSAVerifier(key: key, signature: signature))
        default: nil
        }
    }

    /// The ECDH or X25519 shared secret, or nil when the two keys are not a private and a public
    /// key of one algorithm and curve.
    static func sharedSecret(_ privateKey: AsymmetricKey.Material, _ publicKey: AsymmetricKey.Material) throws -> [UInt8]? {
        switch (privateKey, publicKey) {
        case (.p256Agreement(let key?, _), .p256Agreement(_, let peer)): try key.sharedSecret(with: peer)
        case (.p384Agreement(let key?, _), .p384Agreement(_, let peer)): try key.sharedSecret(with: peer)
        case (.p521Agreement(let key?, _), .p521Agreement(_, let peer)): try key.sharedSecret(with: peer)
        case (.x25519(let key?, _), .x25519(_, let peer)):
            try key.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
        case (.x448(let key?, _), .x448(_, let peer)): try LibCrypto.deriveX448(key, peer: peer)
        default: nil
        }
    }
}

extension AsymmetricKey.Material {
    /// EC keys: the uncompressed public point and the private scalar; Ed25519, X25519, Ed448 and
    /// X448 keys: the raw public and private keys. Nil for RSA keys.
    var curveBytes: (publicKey: [UInt8], privateKey: [UInt8]?)? {
        switch self {
        case .p256Signing(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .p384Signing(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .p521Signing(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .p256Agreement(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .p384Agreement(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .p521Agreement(let key, let pub): (Array(pub.x963Representation), key.map { Array($0.rawRepresentation) })
        case .ed25519(let key, let pub): (Array(pub.rawRepresentation), key.map { Array($0.rawRepresentation) })
        case .x25519(let key, let pub): (Array(pub.rawRepresentation), key.map { Array($0.rawRepresentation) })
        case .ed448(let key, let pub), .x448(let key, let pub): (LibCrypto.rawPublicKey(pub), key.map(LibCrypto.rawPrivateKey))
        case .rsaSigning, .rsaEncryption: nil
        }
    }
}
