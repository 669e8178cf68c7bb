import Crypto
import Foundation
import _CryptoExtras

struct RSASigner: AsymmetricDigestConsumer {
    let key: _RSA.Signing.PrivateKey
    let padding: _RSA.Signing.Padding
    func consume<D: Digest>(_ digest: D) throws -> [UInt8] {
        Array(try key.signature(for: digest, padding: padding).rawRepresentation)
    }
}

struct RSAVerifier: AsymmetricDigestConsumer {
    let key: _RSA.Signing.PublicKey
    let padding: _RSA.Signing.Padding
    let signature: [UInt8]
    func consume<D: Digest>(_ digest: D) -> Bool {
        key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: padding)
    }
}

/// The RSA algorithms' steps over `_CryptoExtras`: RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP keys,
/// with what `_RSA` cannot do refused by name (NotSupportedError).
extension AsymmetricCrypto {
    static let rsaAlgorithms = ["RSA-PSS", "RSASSA-PKCS1-v1_5", "RSA-OAEP"]
    /// 65537, the only exponent BoringSSL's key generation (under `_RSA`) uses.
    static let f4: [UInt8] = [1, 0, 1]

    static func generateRSA(algorithm: String, modulusLength: Int?, publicExponent: [UInt8]?) throws(WebCryptoError) -> AsymmetricKey {
        guard let modulusLength else { throw .operation("\(algorithm): a modulusLength is required") }
        let exponent = Array((publicExponent ?? []).drop { $0 == 0 })
        guard let last = exponent.last, last & 1 == 1, exponent != [1] else {
            throw .operation("\(algorithm): the publicExponent must be an odd number above 1, got 0x\(hex(exponent))")
        }
        guard exponent == f4 else {
            throw .notSupported("\(algorithm): only the publicExponent 65537 (0x010001) is supported for generated keys, got 0x\(hex(exponent))")
        }
        // `_RSA` generates from 1024 bits, and BoringSSL rounds the length down to a multiple of 128.
        guard modulusLength >= 1024, modulusLength <= 16384, modulusLength % 128 == 0 else {
            throw .notSupported("\(algorithm): only a modulusLength that is a multiple of 128 from 1024 to 16384 is supported for generated keys, got \(modulusLength)")
        }
        do {
            let material: AsymmetricKey.Material
            let primitives: _RSA.Signing.PublicKey.Primitives
            if algorithm == "RSA-OAEP" {
                let key = try _RSA.Encryption.PrivateKey(unsafeKeySize: .init(bitCount: modulusLength))
                material = .rsaEncryption(key, key.publicKey)
                let numbers = try key.publicKey.getKeyPrimitives()
                primitives = .init(modulus: numbers.modulus, publicExponent: numbers.publicExponent)
            } else {
                let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: modulusLength))
                material = .rsaSigning(key, key.publicKey)
                primitives = try key.publicKey.getKeyPrimitives()
            }
            let generated = AsymmetricKey(algorithm: algorithm, material: material,
                                          rsaNumbers: (Array(primitives.modulus), Array(primitives.publicExponent)))
            guard generated.modulusLength == modulusLength else {
                throw WebCryptoError.notSupported("\(algorithm): asked for a \(modulusLength)-bit modulus, BoringSSL made one of \(generated.modulusLength ?? 0) bits")
            }
            return generated
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .operation("\(algorithm): generating a \(modulusLength)-bit key failed: \(error)")
        }
    }

    /// An RSA key from its numbers (big-endian): a public key from `n` and `e`, a private key with
    /// `d` and the primes (or, without the primes, the primes factored from `n`, `e` and `d`).
    static func rsaKey(algorithm: String, n: [UInt8], e: [UInt8], d: [UInt8]?, p: [UInt8]?, q: [UInt8]?,
                       format: String) throws(WebCryptoError) -> AsymmetricKey {
        let material: AsymmetricKey.Material
        do {
            if algorithm == "RSA-OAEP" {
                let key: _RSA.Encryption.PrivateKey? = try d.map { d in
                    if let p, let q { return try _RSA.Encryption.PrivateKey(n: n, e: e, d: d, p: p, q: q) }
                    return try _RSA.Encryption.PrivateKey._createFromNumbers(n: n, e: e, d: d)
                }
                material = .rsaEncryption(key, try key?.publicKey ?? _RSA.Encryption.PublicKey(n: n, e: e))
            } else {
                let key: _RSA.Signing.PrivateKey? = try d.map { d in
                    if let p, let q { return try _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q) }
                    return try _RSA.Signing.PrivateKey._createFromNumbers(n: n, e: e, d: d)
                }
                material = .rsaSigning(key, try key?.publicKey ?? _RSA.Signing.PublicKey(n: n, e: e))
            }
        } catch {
            throw .data("\(format): not a valid RSA \(d == nil ? "public" : "private") key (BoringSSL: \(error))")
        }
        return AsymmetricKey(algorithm: algorithm, material: material, rsaNumbers: (n, e))
    }

    /// The private key's numbers, from the PKCS#1 RSAPrivateKey swift-crypto writes.
    static func rsaPrivateNumbers(_ material: AsymmetricKey.Material) throws(WebCryptoError) -> AsymmetricKeyDER.RSAPrivateNumbers? {
        switch material {
        case .rsaSigning(let key?, _): try AsymmetricKeyDER.parseRSAPrivateKey(ArraySlice(key.derRepresentation))
        case .rsaEncryption(let key?, _): try AsymmetricKeyDER.parseRSAPrivateKey(ArraySlice(key.derRepresentation))
        default: nil
        }
    }

    /// The public key's `n` and `e`.
    static func rsaPublicNumbers(_ material: AsymmetricKey.Material) throws(WebCryptoError) -> (n: [UInt8], e: [UInt8])? {
        switch material {
        case .rsaSigning(_, let key): try AsymmetricKeyDER.parseRSAPublicKey(ArraySlice(key.pkcs1DERRepresentation))
        case .rsaEncryption(_, let key): try AsymmetricKeyDER.parseRSAPublicKey(ArraySlice(key.pkcs1DERRepresentation))
        default: nil
        }
    }

    /// RSASSA-PKCS1-v1_5, or RSA-PSS with a salt as long as the digest, the only length `_RSA` signs
    /// and verifies with; nil for RSA-PSS with any other salt length, which LibCrypto takes.
    static func rsaPadding(_ key: AsymmetricKey, hash: WebCryptoHash, saltLength: Int?) throws(WebCryptoError) -> _RSA.Signing.Padding? {
        guard key.algorithm == "RSA-PSS" else { return .insecurePKCS1v1_5 }
        guard let saltLength else { throw .operation("RSA-PSS: a saltLength is required") }
        return saltLength == hash.byteCount ? .PSS : nil
    }

    /// `_RSA`'s OAEP: SHA-1 or SHA-256, no label; nil for a label or another hash, which LibCrypto takes.
    static func oaepPadding(hash: WebCryptoHash, label: [UInt8]?) -> _RSA.Encryption.Padding? {
        guard label?.isEmpty ?? true else { return nil }
        switch hash {
        case .sha1: return .PKCS1_OAEP
        case .sha256: return .PKCS1_OAEP_SHA256
        default: return nil
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
