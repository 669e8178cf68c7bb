import Crypto
import _CryptoExtras

/// WebCrypto's asymmetric algorithms, the native half that `js/web/crypto.js` calls: ECDSA and ECDH
/// over P-256/384/521, Ed25519, X25519, Ed448, X448, RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP, with
/// their keys generated, imported and exported as raw, SPKI, PKCS#8 and JWK. The primitives are
/// swift-crypto's (`Crypto`, `_CryptoExtras`), save what it lacks, which is OpenSSL's (`LibCrypto`):
/// Curve448, OAEP with a label or SHA-384/512, PSS with a salt not as long as the hash. This file
/// only frames keys and checks inputs as the Web Cryptography API's algorithms say, throwing the
/// DOMException name each step names. JS has already normalized the algorithm, checked usages and
/// extractability; nothing here touches JS or runs on its thread by necessity (RSA generation runs
/// off it).
enum AsymmetricCrypto {
    static let ecAlgorithms = ["ECDSA", "ECDH"]
    static let okpAlgorithms = ["Ed25519", "X25519", "Ed448", "X448"]

    static func generate(algorithm: String, namedCurve: String?, modulusLength: Int?, publicExponent: [UInt8]?)
        throws(WebCryptoError) -> (privateKey: AsymmetricKey, publicKey: AsymmetricKey) {
        let privateKey: AsymmetricKey
        switch algorithm {
        case "ECDSA", "ECDH":
            let curve = try checkCurve(namedCurve, for: algorithm)
            privateKey = AsymmetricKey(algorithm: algorithm, material: generateEC(algorithm: algorithm, curve: curve))
        case "Ed25519":
            let key = Curve25519.Signing.PrivateKey()
            privateKey = AsymmetricKey(algorithm: algorithm, material: .ed25519(key, key.publicKey))
        case "X25519":
            let key = Curve25519.KeyAgreement.PrivateKey()
            privateKey = AsymmetricKey(algorithm: algorithm, material: .x25519(key, key.publicKey))
        case "Ed448":
            let key = try LibCrypto.generate(.ed448)
            privateKey = AsymmetricKey(algorithm: algorithm, material: .ed448(key, try LibCrypto.publicKey(.ed448, of: key)))
        case "X448":
            let key = try LibCrypto.generate(.x448)
            privateKey = AsymmetricKey(algorithm: algorithm, material: .x448(key, try LibCrypto.publicKey(.x448, of: key)))
        case _ where rsaAlgorithms.contains(algorithm):
            privateKey = try generateRSA(algorithm: algorithm, modulusLength: modulusLength, publicExponent: publicExponent)
        default:
            throw .notSupported("generateKey: \(algorithm) is not an asymmetric algorithm this host implements")
        }
        return (privateKey, privateKey.publicKey())
    }

    /// format: "raw" (EC and OKP public keys only), "spki", "pkcs8".
    static func importKey(algorithm: String, format: String, data: [UInt8], namedCurve: String?) throws(WebCryptoError) -> AsymmetricKey {
        let curve = ecAlgorithms.contains(algorithm) ? try checkCurve(namedCurve, for: algorithm) : nil
        switch format {
        case "raw":
            if let curve {
                return AsymmetricKey(algorithm: algorithm, material: try ecKey(algorithm: algorithm, curve: curve, d: nil, point: data, format: "raw"))
            }
            guard okpAlgorithms.contains(algorithm) else { throw .notSupported("raw: \(algorithm) keys have no raw format (expected spki, pkcs8 or jwk)") }
            return AsymmetricKey(algorithm: algorithm, material: try okpKey(algorithm: algorithm, privateKey: nil, publicKey: data, format: "raw"))
        case "spki":
            let info = try AsymmetricKeyDER.parsePublicKeyInfo(data)
            try expect(info.type, isPrivate: false, algorithm: algorithm, curve: curve, format: format)
            switch info.type {
            case .rsa:
                let (n, e) = try AsymmetricKeyDER.parseRSAPublicKey(info.key)
                return try rsaKey(algorithm: algorithm, n: n, e: e, d: nil, p: nil, q: nil, format: format)
            case .ec(let curve):
                return AsymmetricKey(algorithm: algorithm, material: try ecKey(algorithm: algorithm, curve: curve, d: nil, point: Array(info.key), format: format))
            case .ed25519, .x25519, .ed448, .x448:
                return AsymmetricKey(algorithm: algorithm, material: try okpKey(algorithm: algorithm, privateKey: nil, publicKey: Array(info.key), format: format))
            }
        case "pkcs8":
            let info = try AsymmetricKeyDER.parsePrivateKeyInfo(data)
            try expect(info.type, isPrivate: true, algorithm: algorithm, curve: curve, format: format)
            switch info.type {
            case .rsa:
                let numbers = try AsymmetricKeyDER.parseRSAPrivateKey(info.key)
                return try rsaKey(algorithm: algorithm, n: numbers.n, e: numbers.e, d: numbers.d, p: numbers.p, q: numbers.q, format: format)
            case .ec(let curve):
                var (d, point) = try AsymmetricKeyDER.parseECPrivateKey(info.key, curve: curve)
                // RFC 5915 writes the scalar at the curve's length; some encoders drop leading zeros.
                if d.count < coordinateLength(curve) { d = [UInt8](repeating: 0, count: coordinateLength(curve) - d.count) + d }
                return AsymmetricKey(algorithm: algorithm, material: try ecKey(algorithm: algorithm, curve: curve, d: d, point: point, format: format))
            case .ed25519, .x25519, .ed448, .x448:
                let key = try AsymmetricKeyDER.parseCurvePrivateKey(info.key)
                return AsymmetricKey(algorithm: algorithm, material: try okpKey(algorithm: algorithm, privateKey: key, publicKey: nil, format: format))
            }
        default:
            throw .notSupported("importKey: expected the format raw, spki, pkcs8 or jwk for \(algorithm), got \(format)")
        }
    }

    /// The DataError for a SPKI or PKCS#8 key of another type than the algorithm's.
    static func expect(_ type: AsymmetricKeyDER.KeyType, isPrivate: Bool, algorithm: String, curve: String?,
                       format: String) throws(WebCryptoError) {
        let expected: AsymmetricKeyDER.KeyType
        switch algorithm {
        case "ECDSA", "ECDH": expected = .ec(curve: curve ?? "")
        case "Ed25519": expected = .ed25519
        case "X25519": expected = .x25519
        case "Ed448": expected = .ed448
        case "X448": expected = .x448
        case _ where rsaAlgorithms.contains(algorithm): expected = .rsa
        default: throw .notSupported("importKey: \(algorithm) is not an asymmetric algorithm this host implements")
        }
        guard type == expected else {
            let kind = isPrivate ? "private" : "public"
            let name = if case .ec(let curve) = expected { curve } else if expected == .rsa { "RSA" } else { algorithm }
            throw .data("\(format): expected \(name == "RSA" ? "an" : "a") \(name) \(kind) key for \(algorithm), got \(type)")
        }
    }

    /// format: "raw" (EC and OKP public keys), "spki" (public keys), "pkcs8" (private keys).
    static func export(_ key: AsymmetricKey, format: String) throws(WebCryptoError) -> [UInt8] {
        switch format {
        case "raw":
            guard let bytes = key.material.curveBytes else { throw .notSupported("raw: \(key.algorithm) keys have no raw format (expected spki, pkcs8 or jwk)") }
            guard !key.isPrivate else { throw .invalidAccess("raw: only public \(key.algorithm) keys export as raw, this one is private") }
            return bytes.publicKey
        case "spki":
            guard !key.isPrivate else { throw .invalidAccess("spki: expected a public key, this \(key.algorithm) key is private") }
            switch key.material {
            case .rsaSigning(_, let publicKey): return Array(publicKey.derRepresentation)
            case .rsaEncryption(_, let publicKey): return Array(publicKey.derRepresentation)
            default: return AsymmetricKeyDER.publicKeyInfo(type: keyType(of: key), key: key.material.curveBytes!.publicKey)
            }
        case "pkcs8":
            guard key.isPrivate else { throw .invalidAccess("pkcs8: expected a private key, this \(key.algorithm) key is public") }
            switch key.material {
            case .rsaSigning(let privateKey?, _): return AsymmetricKeyDER.privateKeyInfo(type: .rsa, key: Array(privateKey.derRepresentation))
            case .rsaEncryption(let privateKey?, _): return AsymmetricKeyDER.privateKeyInfo(type: .rsa, key: Array(privateKey.derRepresentation))
            default:
                let bytes = key.material.curveBytes!
                let inner = key.namedCurve == nil ? AsymmetricKeyDER.curvePrivateKey(bytes.privateKey!)
                    : AsymmetricKeyDER.ecPrivateKey(d: bytes.privateKey!, point: bytes.publicKey)
                return AsymmetricKeyDER.privateKeyInfo(type: keyType(of: key), key: inner)
            }
        default:
            throw .notSupported("exportKey: expected the format raw, spki, pkcs8 or jwk for \(key.algorithm), got \(format)")
        }
    }

    static func keyType(of key: AsymmetricKey) -> AsymmetricKeyDER.KeyType {
        if let curve = key.namedCurve { return .ec(curve: curve) }
        switch key.algorithm {
        case "Ed25519": return .ed25519
        case "X25519": return .x25519
        case "Ed448": return .ed448
        case "X448": return .x448
        default: return .rsa
        }
    }

    /// ECDSA (hash required; the signature IEEE P1363 `r || s`), Ed25519, Ed448, RSA-PSS (hash,
    /// saltLength), RSASSA-PKCS1-v1_5 (hash).
    static func sign(_ key: AsymmetricKey, hash: String?, saltLength: Int?, data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        guard key.isPrivate else { throw .invalidAccess("sign: expected a private \(key.algorithm) key, got a public one") }
        do {
            switch key.material {
            case .ed25519(let privateKey?, _):
                return Array(try privateKey.signature(for: data))
            case .ed448(let privateKey?, _):
                return try LibCrypto.signEd448(privateKey, data: data)
            case .rsaSigning(let privateKey?, _):
                let hash = try WebCryptoHash(named: hash, for: key.algorithm)
                guard let padding = try rsaPadding(key, hash: hash, saltLength: saltLength) else {
                    let openSSLKey = try LibCrypto.rsaPrivateKey(pkcs1: Array(privateKey.derRepresentation))
                    return try LibCrypto.signPSS(openSSLKey, hash: hash, saltLength: saltLength!, data: data)
                }
                return try hash.digest(data, into: RSASigner(key: privateKey, padding: padding))
            default:
                guard key.algorithm == "ECDSA" else { throw WebCryptoError.invalidAccess("sign: \(key.algorithm) keys do not sign") }
                return try ecdsaSign(key.material, hash: try WebCryptoHash(named: hash, for: key.algorithm), data: data)!
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .operation("sign: \(key.algorithm) failed: \(error)")
        }
    }

    /// False for a signature that does not verify, including one of the wrong length.
    static func verify(_ key: AsymmetricKey, hash: String?, saltLength: Int?, signature: [UInt8], data: [UInt8]) throws(WebCryptoError) -> Bool {
        guard !key.isPrivate else { throw .invalidAccess("verify: expected a public \(key.algorithm) key, got a private one") }
        do {
            switch key.material {
            case .ed25519(_, let publicKey):
                return signature.count == 64 && publicKey.isValidSignature(signature, for: data)
            case .ed448(_, let publicKey):
                return try LibCrypto.verifyEd448(publicKey, signature: signature, data: data)
            case .rsaSigning(_, let publicKey):
                let hash = try WebCryptoHash(named: hash, for: key.algorithm)
                guard let padding = try rsaPadding(key, hash: hash, saltLength: saltLength) else {
                    let openSSLKey = try LibCrypto.rsaPublicKey(pkcs1: Array(publicKey.pkcs1DERRepresentation))
                    return try LibCrypto.verifyPSS(openSSLKey, hash: hash, saltLength: saltLength!, signature: signature, data: data)
                }
                return try hash.digest(data, into: RSAVerifier(key: publicKey, padding: padding, signature: signature))
            default:
                guard key.algorithm == "ECDSA" else { throw WebCryptoError.invalidAccess("verify: \(key.algorithm) keys do not verify") }
                return try ecdsaVerify(key.material, hash: try WebCryptoHash(named: hash, for: key.algorithm), signature: signature, data: data)!
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .operation("verify: \(key.algorithm) failed: \(error)")
        }
    }

    /// RSA-OAEP with the public key.
    static func encrypt(_ key: AsymmetricKey, hash: String, label: [UInt8]?, data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        guard case .rsaEncryption(nil, let publicKey) = key.material else {
            throw .invalidAccess("encrypt: expected a public RSA-OAEP key, got a \(key.isPrivate ? "private" : "public") \(key.algorithm) key")
        }
        let hash = try WebCryptoHash(named: hash, for: key.algorithm)
        // RFC 8017 §7.1.1's length check first: too long is an OperationError with any hash and label.
        let limit = (key.modulusLength ?? 0) / 8 - 2 * hash.byteCount - 2
        guard data.count <= limit else {
            throw .operation("encrypt: RSA-OAEP with \(hash.rawValue) and a \(key.modulusLength ?? 0)-bit key takes at most \(max(limit, 0)) bytes, got \(data.count)")
        }
        guard let padding = oaepPadding(hash: hash, label: label) else {
            let openSSLKey = try LibCrypto.rsaPublicKey(pkcs1: Array(publicKey.pkcs1DERRepresentation))
            return try LibCrypto.encryptOAEP(openSSLKey, hash: hash, label: label ?? [], data: data)
        }
        do {
            return Array(try publicKey.encrypt(data, padding: padding))
        } catch {
            throw .operation("encrypt: RSA-OAEP failed: \(error)")
        }
    }

    /// RSA-OAEP with the private key.
    static func decrypt(_ key: AsymmetricKey, hash: String, label: [UInt8]?, data: [UInt8]) throws(WebCryptoError) -> [UInt8] {
        guard case .rsaEncryption(let privateKey?, _) = key.material else {
            throw .invalidAccess("decrypt: expected a private RSA-OAEP key, got a \(key.isPrivate ? "private" : "public") \(key.algorithm) key")
        }
        let hash = try WebCryptoHash(named: hash, for: key.algorithm)
        do {
            guard let padding = oaepPadding(hash: hash, label: label) else {
                let openSSLKey = try LibCrypto.rsaPrivateKey(pkcs1: Array(privateKey.derRepresentation))
                return try LibCrypto.decryptOAEP(openSSLKey, hash: hash, label: label ?? [], data: data)
            }
            return Array(try privateKey.decrypt(data, padding: padding))
        } catch {
            throw .operation("decrypt: RSA-OAEP could not decrypt the data (wrong key, hash or label, or a damaged ciphertext)")
        }
    }

    /// ECDH, X25519, X448: the shared secret's first `length` bits (all of it when nil).
    static func deriveBits(privateKey: AsymmetricKey, publicKey: AsymmetricKey, length: Int?) throws(WebCryptoError) -> [UInt8] {
        guard privateKey.isPrivate else { throw .invalidAccess("deriveBits: expected a private \(privateKey.algorithm) key as the base key, got a public one") }
        guard !publicKey.isPrivate else { throw .invalidAccess("deriveBits: expected a public key as `public`, got a private one") }
        guard publicKey.algorithm == privateKey.algorithm else {
            throw .invalidAccess("deriveBits: expected a public \(privateKey.algorithm) key as `public`, got a \(publicKey.algorithm) key")
        }
        guard publicKey.namedCurve == privateKey.namedCurve else {
            throw .invalidAccess("deriveBits: expected a public \(privateKey.namedCurve ?? "") key as `public`, got a \(publicKey.namedCurve ?? "") key")
        }
        var secret: [UInt8]
        do {
            guard let derived = try sharedSecret(privateKey.material, publicKey.material) else {
                throw WebCryptoError.invalidAccess("deriveBits: \(privateKey.algorithm) keys do not derive bits")
            }
            secret = derived
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .operation("deriveBits: \(privateKey.algorithm) key agreement failed: \(error)")
        }
        if privateKey.algorithm == "X25519", secret.allSatisfy({ $0 == 0 }) {
            throw .operation("deriveBits: the X25519 shared secret is all zeros (the public key is of small order)")
        }
        guard let length else { return secret }
        guard length >= 0, length <= secret.count * 8 else {
            throw .operation("deriveBits: asked for \(length) bits, the \(privateKey.algorithm) shared secret has \(secret.count * 8)")
        }
        secret.removeLast(secret.count - (length + 7) / 8)
        if length % 8 != 0 { secret[secret.count - 1] &= 0xFF << (8 - length % 8) }
        return secret
    }
}
