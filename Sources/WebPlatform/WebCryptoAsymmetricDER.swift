import SwiftASN1

/// The DER framing of WebCrypto's "spki" and "pkcs8" formats, over swift-asn1: RFC 5280's
/// SubjectPublicKeyInfo, RFC 5208's PrivateKeyInfo (and RFC 5958's version 1 of it), and the key
/// structures they carry: RFC 8017's RSAPublicKey and RSAPrivateKey, RFC 5915's ECPrivateKey,
/// RFC 8410's CurvePrivateKey. Only framing: every number goes to swift-crypto (OpenSSL's libcrypto
/// for Ed448 and X448), which checks it.
/// What this writes is byte for byte what node 20 (OpenSSL 3) exports for the same key.
enum AsymmetricKeyDER {
    /// A key's type as an AlgorithmIdentifier names it.
    enum KeyType: Equatable, CustomStringConvertible {
        case rsa
        /// "P-256", "P-384" or "P-521".
        case ec(curve: String)
        case ed25519
        case x25519
        case ed448
        case x448

        var description: String {
            switch self {
            case .rsa: "an RSA key"
            case .ec(let curve): "a \(curve) key"
            case .ed25519: "an Ed25519 key"
            case .x25519: "an X25519 key"
            case .ed448: "an Ed448 key"
            case .x448: "an X448 key"
            }
        }
    }

    /// SubjectPublicKeyInfo's or PrivateKeyInfo's parts: the key's type and the bytes of its
    /// BIT STRING or OCTET STRING.
    struct KeyInfo {
        var type: KeyType
        var key: ArraySlice<UInt8>
    }

    static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    static let rsassaPSS: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 10]
    static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 2, 1]
    static let x25519: ASN1ObjectIdentifier = [1, 3, 101, 110]
    static let x448: ASN1ObjectIdentifier = [1, 3, 101, 111]
    static let ed25519: ASN1ObjectIdentifier = [1, 3, 101, 112]
    static let ed448: ASN1ObjectIdentifier = [1, 3, 101, 113]
    static let curves: [(name: String, oid: ASN1ObjectIdentifier)] = [
        ("P-256", ASN1ObjectIdentifier.NamedCurves.secp256r1),
        ("P-384", ASN1ObjectIdentifier.NamedCurves.secp384r1),
        ("P-521", ASN1ObjectIdentifier.NamedCurves.secp521r1),
    ]

    // MARK: Reading

    /// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    static func parsePublicKeyInfo(_ der: [UInt8]) throws(WebCryptoError) -> KeyInfo {
        var keyType: KeyType?
        let key: ArraySlice<UInt8>
        do {
            key = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                keyType = try parseAlgorithmIdentifier(&nodes)
                let bits = try ASN1BitString(derEncoded: &nodes)
                guard bits.paddingBits == 0 else { throw ASN1Error.invalidASN1Object(reason: "a key's BIT STRING has unused bits") }
                return bits.bytes
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .data("spki: expected a DER SubjectPublicKeyInfo: \(error)")
        }
        guard let keyType else { throw .data("spki: no algorithm identifier") }
        return KeyInfo(type: keyType, key: key)
    }

    /// PrivateKeyInfo ::= SEQUENCE { version INTEGER (0 or 1), privateKeyAlgorithm AlgorithmIdentifier,
    /// privateKey OCTET STRING, attributes [0] IMPLICIT OPTIONAL, publicKey [1] IMPLICIT BIT STRING OPTIONAL }
    static func parsePrivateKeyInfo(_ der: [UInt8]) throws(WebCryptoError) -> KeyInfo {
        var keyType: KeyType?
        let key: ArraySlice<UInt8>
        do {
            key = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 || version == 1 else { throw ASN1Error.invalidASN1Object(reason: "version \(version), expected 0 or 1") }
                keyType = try parseAlgorithmIdentifier(&nodes)
                let key = try ASN1OctetString(derEncoded: &nodes).bytes
                // The attributes and the public key, both optional, are not needed: swift-crypto
                // derives the public key from the private one.
                while nodes.next() != nil {}
                return key
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .data("pkcs8: expected a DER PrivateKeyInfo: \(error)")
        }
        guard let keyType else { throw .data("pkcs8: no algorithm identifier") }
        return KeyInfo(type: keyType, key: key)
    }

    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
    static func parseAlgorithmIdentifier(_ nodes: inout ASN1NodeCollection.Iterator) throws -> KeyType {
        guard let node = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no AlgorithmIdentifier") }
        return try DER.sequence(node, identifier: .sequence) { fields throws -> KeyType in
            let oid = try ASN1ObjectIdentifier(derEncoded: &fields)
            let parameters = fields.next()
            switch oid {
            case rsaEncryption:
                if let parameters, parameters.identifier != .null {
                    throw WebCryptoError.data("rsaEncryption's parameters must be NULL")
                }
                return .rsa
            case ecPublicKey:
                guard let parameters, parameters.identifier == .objectIdentifier else {
                    throw WebCryptoError.data("an EC key's parameters must name its curve (explicit curve parameters are not supported)")
                }
                let curveOID = try ASN1ObjectIdentifier(derEncoded: parameters)
                guard let curve = curves.first(where: { $0.oid == curveOID }) else {
                    throw WebCryptoError.data("the EC curve \(curveOID) is not one of P-256, P-384, P-521")
                }
                return .ec(curve: curve.name)
            case ed25519, x25519, ed448, x448:
                let type: KeyType = switch oid {
                case ed25519: .ed25519
                case x25519: .x25519
                case ed448: .ed448
                default: .x448
                }
                guard parameters == nil else { throw WebCryptoError.data("\(type) takes no parameters") }
                return type
            case rsassaPSS:
                throw WebCryptoError.notSupported("id-RSASSA-PSS keys (with their parameters) are not supported: expected rsaEncryption")
            default:
                throw WebCryptoError.data("unknown key algorithm \(oid)")
            }
        }
    }

    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }; the numbers big-endian,
    /// without leading zeros.
    static func parseRSAPublicKey(_ der: ArraySlice<UInt8>) throws(WebCryptoError) -> (n: [UInt8], e: [UInt8]) {
        do {
            return try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                (Array(try ArraySlice<UInt8>(derEncoded: &nodes)), Array(try ArraySlice<UInt8>(derEncoded: &nodes)))
            }
        } catch {
            throw .data("expected a DER RSAPublicKey: \(error)")
        }
    }

    /// An RSA private key's numbers, big-endian without leading zeros.
    struct RSAPrivateNumbers {
        var n, e, d, p, q, dp, dq, qi: [UInt8]
    }

    /// RSAPrivateKey ::= SEQUENCE { version INTEGER (0), n, e, d, p, q, dp, dq, qi INTEGER }; two-prime keys only.
    static func parseRSAPrivateKey(_ der: ArraySlice<UInt8>) throws(WebCryptoError) -> RSAPrivateNumbers {
        do {
            return try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 0 else {
                    throw WebCryptoError.notSupported("multi-prime RSA keys (RSAPrivateKey version \(version)) are not supported")
                }
                var numbers: [[UInt8]] = []
                for _ in 0..<8 { numbers.append(Array(try ArraySlice<UInt8>(derEncoded: &nodes))) }
                return RSAPrivateNumbers(n: numbers[0], e: numbers[1], d: numbers[2], p: numbers[3], q: numbers[4],
                                         dp: numbers[5], dq: numbers[6], qi: numbers[7])
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .data("expected a DER RSAPrivateKey: \(error)")
        }
    }

    /// ECPrivateKey ::= SEQUENCE { version INTEGER (1), privateKey OCTET STRING,
    /// parameters [0] EXPLICIT OBJECT IDENTIFIER OPTIONAL, publicKey [1] EXPLICIT BIT STRING OPTIONAL }.
    /// The curve named in `parameters`, when there, must be the AlgorithmIdentifier's.
    static func parseECPrivateKey(_ der: ArraySlice<UInt8>, curve: String) throws(WebCryptoError) -> (d: [UInt8], point: [UInt8]?) {
        do {
            return try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes in
                let version = try Int(derEncoded: &nodes)
                guard version == 1 else { throw ASN1Error.invalidASN1Object(reason: "ECPrivateKey version \(version), expected 1") }
                let d = Array(try ASN1OctetString(derEncoded: &nodes).bytes)
                let parameters = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                    try ASN1ObjectIdentifier(derEncoded: node)
                }
                if let parameters, curves.first(where: { $0.name == curve })?.oid != parameters {
                    throw WebCryptoError.data("the ECPrivateKey names the curve \(parameters), its AlgorithmIdentifier \(curve)")
                }
                let point = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                    Array(try ASN1BitString(derEncoded: node).bytes)
                }
                return (d, point)
            }
        } catch let error as WebCryptoError {
            throw error
        } catch {
            throw .data("expected a DER ECPrivateKey: \(error)")
        }
    }

    /// CurvePrivateKey ::= OCTET STRING
    static func parseCurvePrivateKey(_ der: ArraySlice<UInt8>) throws(WebCryptoError) -> [UInt8] {
        do {
            return Array(try ASN1OctetString(derEncoded: der).bytes)
        } catch {
            throw .data("expected a DER CurvePrivateKey (an OCTET STRING): \(error)")
        }
    }

    // MARK: Writing

    static func publicKeyInfo(type: KeyType, key: [UInt8]) -> [UInt8] {
        serialized { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try serializeAlgorithmIdentifier(type, into: &coder)
                try coder.serialize(ASN1BitString(bytes: key[...]))
            }
        }
    }

    static func privateKeyInfo(type: KeyType, key: [UInt8]) -> [UInt8] {
        serialized { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(0)
                try serializeAlgorithmIdentifier(type, into: &coder)
                try coder.serialize(ASN1OctetString(contentBytes: key[...]))
            }
        }
    }

    static func serializeAlgorithmIdentifier(_ type: KeyType, into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            switch type {
            case .rsa:
                try coder.serialize(rsaEncryption)
                try coder.serialize(ASN1Null())
            case .ec(let curve):
                try coder.serialize(ecPublicKey)
                try coder.serialize(curves.first { $0.name == curve }!.oid)
            case .ed25519:
                try coder.serialize(ed25519)
            case .x25519:
                try coder.serialize(x25519)
            case .ed448:
                try coder.serialize(ed448)
            case .x448:
                try coder.serialize(x448)
            }
        }
    }

    /// An ECPrivateKey as OpenSSL 3 writes it inside PKCS#8: no parameters (the AlgorithmIdentifier
    /// has them), the public point.
    static func ecPrivateKey(d: [UInt8], point: [UInt8]) -> [UInt8] {
        serialized { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(1)
                try coder.serialize(ASN1OctetString(contentBytes: d[...]))
                try coder.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { coder in
                    try coder.serialize(ASN1BitString(bytes: point[...]))
                }
            }
        }
    }

    static func curvePrivateKey(_ key: [UInt8]) -> [UInt8] {
        serialized { coder in try coder.serialize(ASN1OctetString(contentBytes: key[...])) }
    }

    /// What `body` writes. Serializing these values cannot fail: every one is well formed.
    static func serialized(_ body: (inout DER.Serializer) throws -> Void) -> [UInt8] {
        var coder = DER.Serializer()
        try! body(&coder)
        return coder.serializedBytes
    }
}
