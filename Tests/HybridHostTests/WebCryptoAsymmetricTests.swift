import Foundation
import Testing
@testable import WebPlatform

/// WebCrypto's asymmetric algorithms, the native half (issue 29, item 3), through the interface
/// js/web/crypto.js calls (`AsymmetricCrypto`): round trips in every format, the RFCs' known
/// answers, and node 20's own keys and outputs (Fixtures/webcrypto/asymmetric-keys.json, written
/// once by make-asymmetric-keys.mjs beside it) imported, exported and checked byte for byte.
/// The WPT directories (WebCryptoAPI/sign_verify, import_export, ...) cover the JS half on top.
@Suite("WebCrypto's asymmetric algorithms")
struct WebCryptoAsymmetricTests {
    // MARK: Round trips

    /// Every algorithm with the parameters of a generated key.
    static let generated: [(algorithm: String, curve: String?)] = [
        ("ECDSA", "P-256"), ("ECDSA", "P-384"), ("ECDSA", "P-521"), ("ECDH", "P-256"), ("ECDH", "P-384"), ("ECDH", "P-521"),
        ("Ed25519", nil), ("X25519", nil), ("Ed448", nil), ("X448", nil), ("RSA-PSS", nil), ("RSASSA-PKCS1-v1_5", nil), ("RSA-OAEP", nil),
    ]

    @Test("a generated key pair survives every format it has, and still works after", arguments: generated)
    func roundTrip(algorithm: String, curve: String?) throws {
        let rsa = algorithm.hasPrefix("RSA")
        let (privateKey, publicKey) = try AsymmetricCrypto.generate(algorithm: algorithm, namedCurve: curve,
                                                                    modulusLength: rsa ? 2048 : nil, publicExponent: rsa ? [1, 0, 1] : nil)
        #expect(privateKey.isPrivate && !publicKey.isPrivate)
        #expect(privateKey.namedCurve == curve && publicKey.namedCurve == curve)
        #expect(publicKey.modulusLength == (rsa ? 2048 : nil) && publicKey.publicExponent == (rsa ? [1, 0, 1] : nil))

        var publicCopies = [try AsymmetricCrypto.importKey(algorithm: algorithm, format: "spki",
                                                           data: AsymmetricCrypto.export(publicKey, format: "spki"), namedCurve: curve),
                            try AsymmetricCrypto.importJWK(algorithm: algorithm, jwk: AsymmetricCrypto.exportJWK(publicKey), namedCurve: curve)]
        if !rsa {
            publicCopies.append(try AsymmetricCrypto.importKey(algorithm: algorithm, format: "raw",
                                                               data: AsymmetricCrypto.export(publicKey, format: "raw"), namedCurve: curve))
        }
        let privateCopies = [try AsymmetricCrypto.importKey(algorithm: algorithm, format: "pkcs8",
                                                            data: AsymmetricCrypto.export(privateKey, format: "pkcs8"), namedCurve: curve),
                             try AsymmetricCrypto.importJWK(algorithm: algorithm, jwk: AsymmetricCrypto.exportJWK(privateKey), namedCurve: curve)]
        for copy in publicCopies {
            #expect(try AsymmetricCrypto.export(copy, format: "spki") == AsymmetricCrypto.export(publicKey, format: "spki"))
            #expect(try AsymmetricCrypto.exportJWK(copy) == AsymmetricCrypto.exportJWK(publicKey))
        }
        for copy in privateCopies {
            #expect(try AsymmetricCrypto.export(copy, format: "pkcs8") == AsymmetricCrypto.export(privateKey, format: "pkcs8"))
            #expect(try AsymmetricCrypto.exportJWK(copy) == AsymmetricCrypto.exportJWK(privateKey))
        }
        // Each private copy works with each public copy.
        for (privateCopy, publicCopy) in zip(privateCopies + [privateKey], publicCopies + [publicKey]) {
            try expectWorking(privateCopy, publicCopy)
        }
    }

    /// Signs and verifies, encrypts and decrypts, or agrees on a secret with a second pair.
    func expectWorking(_ privateKey: AsymmetricKey, _ publicKey: AsymmetricKey) throws {
        let data = Array("an order of 12 widgets".utf8)
        switch privateKey.algorithm {
        case "ECDH", "X25519", "X448":
            let peer = try AsymmetricCrypto.generate(algorithm: privateKey.algorithm, namedCurve: privateKey.namedCurve, modulusLength: nil, publicExponent: nil)
            let ours = try AsymmetricCrypto.deriveBits(privateKey: privateKey, publicKey: peer.publicKey, length: nil)
            let theirs = try AsymmetricCrypto.deriveBits(privateKey: peer.privateKey, publicKey: publicKey, length: nil)
            #expect(ours == theirs && !ours.isEmpty)
        case "RSA-OAEP":
            let ciphertext = try AsymmetricCrypto.encrypt(publicKey, hash: "SHA-256", label: nil, data: data)
            #expect(ciphertext.count == 256)
            #expect(try AsymmetricCrypto.decrypt(privateKey, hash: "SHA-256", label: [], data: ciphertext) == data)
        default:
            let saltLength = privateKey.algorithm == "RSA-PSS" ? 32 : nil
            let hash = privateKey.algorithm.hasPrefix("Ed") ? nil : "SHA-256"
            let signature = try AsymmetricCrypto.sign(privateKey, hash: hash, saltLength: saltLength, data: data)
            #expect(try AsymmetricCrypto.verify(publicKey, hash: hash, saltLength: saltLength, signature: signature, data: data))
            #expect(try !AsymmetricCrypto.verify(publicKey, hash: hash, saltLength: saltLength, signature: signature, data: data + [0]))
        }
    }

    @Test("ECDSA signs with every hash on every curve, as r || s, and refuses a changed or DER signature",
          arguments: ["P-256", "P-384", "P-521"], ["SHA-1", "SHA-256", "SHA-384", "SHA-512"])
    func ecdsaHashes(curve: String, hash: String) throws {
        let (privateKey, publicKey) = try AsymmetricCrypto.generate(algorithm: "ECDSA", namedCurve: curve, modulusLength: nil, publicExponent: nil)
        let data = Array("ECDSA over \(curve) with \(hash)".utf8)
        let signature = try AsymmetricCrypto.sign(privateKey, hash: hash, saltLength: nil, data: data)
        #expect(signature.count == 2 * AsymmetricCrypto.coordinateLength(curve))
        #expect(try AsymmetricCrypto.verify(publicKey, hash: hash, saltLength: nil, signature: signature, data: data))
        var changed = signature
        changed[changed.count - 1] ^= 1
        #expect(try !AsymmetricCrypto.verify(publicKey, hash: hash, saltLength: nil, signature: changed, data: data))
        #expect(try !AsymmetricCrypto.verify(publicKey, hash: hash, saltLength: nil, signature: [0x30] + signature, data: data))
        #expect(try !AsymmetricCrypto.verify(publicKey, hash: hash == "SHA-1" ? "SHA-256" : "SHA-1", saltLength: nil, signature: signature, data: data))
    }

    @Test("a raw EC public key may be compressed; it exports uncompressed")
    func compressedPoint() throws {
        let (_, publicKey) = try AsymmetricCrypto.generate(algorithm: "ECDH", namedCurve: "P-256", modulusLength: nil, publicExponent: nil)
        let raw = try AsymmetricCrypto.export(publicKey, format: "raw")
        let compressed = [2 + (raw.last! & 1)] + raw[1...32]
        let imported = try AsymmetricCrypto.importKey(algorithm: "ECDH", format: "raw", data: compressed, namedCurve: "P-256")
        #expect(try AsymmetricCrypto.export(imported, format: "raw") == raw)
    }

    @Test("deriveBits gives the secret's first bits, the last byte masked")
    func deriveBitsLength() throws {
        let a = try AsymmetricCrypto.generate(algorithm: "ECDH", namedCurve: "P-384", modulusLength: nil, publicExponent: nil)
        let b = try AsymmetricCrypto.generate(algorithm: "ECDH", namedCurve: "P-384", modulusLength: nil, publicExponent: nil)
        let all = try AsymmetricCrypto.deriveBits(privateKey: a.privateKey, publicKey: b.publicKey, length: nil)
        #expect(all.count == 48)
        #expect(try AsymmetricCrypto.deriveBits(privateKey: a.privateKey, publicKey: b.publicKey, length: 384) == all)
        #expect(try AsymmetricCrypto.deriveBits(privateKey: a.privateKey, publicKey: b.publicKey, length: 0) == [])
        #expect(try AsymmetricCrypto.deriveBits(privateKey: a.privateKey, publicKey: b.publicKey, length: 12) == [all[0], all[1] & 0xF0])
    }

    // MARK: Known answers

    @Test("Ed25519 signs RFC 8032's test 1 to its signature")
    func ed25519Vector() throws {
        let jwk = ["kty": "OKP", "crv": "Ed25519",
                   "d": base64URL("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"),
                   "x": base64URL("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")]
        let privateKey = try AsymmetricCrypto.importJWK(algorithm: "Ed25519", jwk: jwk, namedCurve: nil)
        let signature = try AsymmetricCrypto.sign(privateKey, hash: nil, saltLength: nil, data: [])
        #expect(hex(signature) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        let publicKey = try AsymmetricCrypto.importKey(algorithm: "Ed25519", format: "raw", data: bytes(jwk["x"]!, base64URL: true), namedCurve: nil)
        #expect(try AsymmetricCrypto.verify(publicKey, hash: nil, saltLength: nil, signature: signature, data: []))
        #expect(try !AsymmetricCrypto.verify(publicKey, hash: nil, saltLength: nil, signature: Array(signature.dropLast()), data: []))
    }

    @Test("X25519 agrees on RFC 7748 §6.1's shared secret")
    func x25519Vector() throws {
        func pkcs8(_ privateKey: String) -> [UInt8] { bytes("302e020100300506032b656e04220420" + privateKey) }
        let alice = try AsymmetricCrypto.importKey(algorithm: "X25519", format: "pkcs8",
                                                   data: pkcs8("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"), namedCurve: nil)
        let bob = try AsymmetricCrypto.importKey(algorithm: "X25519", format: "pkcs8",
                                                 data: pkcs8("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"), namedCurve: nil)
        #expect(try hex(AsymmetricCrypto.export(alice.publicKey(), format: "raw")) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(try hex(AsymmetricCrypto.export(bob.publicKey(), format: "raw")) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let secret = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(try hex(AsymmetricCrypto.deriveBits(privateKey: alice, publicKey: bob.publicKey(), length: nil)) == secret)
        #expect(try hex(AsymmetricCrypto.deriveBits(privateKey: bob, publicKey: alice.publicKey(), length: nil)) == secret)
    }

    // MARK: node 20's keys

    struct NodeKeys: Decodable {
        let message: String
        let keys: [String: NodeKey]
    }

    struct NodeKey: Decodable {
        let pkcs8, spki: String
        let raw: String?
        let privateJWK, publicJWK: [String: JSONMember]
        let peer: Peer?
        let sharedSecret: String?
        let signature: String?
        let signatures: [String: String]?
        let ciphertexts: [String: String]?

        struct Peer: Decodable { let pkcs8, spki: String }
    }

    /// A JWK member: the tests keep the strings (key material), not key_ops or ext.
    struct JSONMember: Decodable {
        let string: String?
        init(from decoder: Decoder) throws { string = try? decoder.singleValueContainer().decode(String.self) }
    }

    static let node: NodeKeys = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/webcrypto/asymmetric-keys.json")
        return try! JSONDecoder().decode(NodeKeys.self, from: Data(contentsOf: url))
    }()

    static let materialMembers: Set<String> = ["kty", "crv", "x", "y", "d", "n", "e", "p", "q", "dp", "dq", "qi"]

    static func material(_ jwk: [String: JSONMember]) -> [String: String] {
        jwk.reduce(into: [:]) { result, member in
            if materialMembers.contains(member.key), let value = member.value.string { result[member.key] = value }
        }
    }

    static func parameters(_ name: String) -> (algorithm: String, curve: String?) {
        let parts = name.split(separator: " ").map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : nil)
    }

    @Test("node's key imports from PKCS#8, SPKI, raw and JWK and exports to node's bytes and members",
          arguments: node.keys.keys.sorted())
    func nodeKey(name: String) throws {
        let (algorithm, curve) = Self.parameters(name)
        let fixture = try #require(Self.node.keys[name])
        let privateJWK = Self.material(fixture.privateJWK), publicJWK = Self.material(fixture.publicJWK)

        let fromPKCS8 = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "pkcs8", data: bytes(fixture.pkcs8), namedCurve: curve)
        #expect(try AsymmetricCrypto.exportJWK(fromPKCS8) == privateJWK)
        #expect(try hex(AsymmetricCrypto.export(fromPKCS8, format: "pkcs8")) == fixture.pkcs8)
        #expect(try hex(AsymmetricCrypto.export(fromPKCS8.publicKey(), format: "spki")) == fixture.spki)

        let fromJWK = try AsymmetricCrypto.importJWK(algorithm: algorithm, jwk: privateJWK, namedCurve: curve)
        #expect(try hex(AsymmetricCrypto.export(fromJWK, format: "pkcs8")) == fixture.pkcs8)

        let fromSPKI = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "spki", data: bytes(fixture.spki), namedCurve: curve)
        #expect(try AsymmetricCrypto.exportJWK(fromSPKI) == publicJWK)
        #expect(try hex(AsymmetricCrypto.export(fromSPKI, format: "spki")) == fixture.spki)
        if let raw = fixture.raw {
            #expect(try hex(AsymmetricCrypto.export(fromSPKI, format: "raw")) == raw)
            let fromRaw = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "raw", data: bytes(raw), namedCurve: curve)
            #expect(try hex(AsymmetricCrypto.export(fromRaw, format: "spki")) == fixture.spki)
        }
        let publicFromJWK = try AsymmetricCrypto.importJWK(algorithm: algorithm, jwk: publicJWK, namedCurve: curve)
        #expect(try hex(AsymmetricCrypto.export(publicFromJWK, format: "spki")) == fixture.spki)
        if algorithm.hasPrefix("RSA") {
            #expect(fromSPKI.modulusLength == 2048 && fromPKCS8.modulusLength == 2048 && fromSPKI.publicExponent == [1, 0, 1])
        }
    }

    @Test("ECDH and X25519 agree on node's shared secret", arguments: ["ECDH P-256", "ECDH P-384", "ECDH P-521", "X25519"])
    func nodeSharedSecret(name: String) throws {
        let (algorithm, curve) = Self.parameters(name)
        let fixture = try #require(Self.node.keys[name])
        let peer = try #require(fixture.peer)
        let ours = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "pkcs8", data: bytes(fixture.pkcs8), namedCurve: curve)
        let theirs = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "spki", data: bytes(peer.spki), namedCurve: curve)
        #expect(try hex(AsymmetricCrypto.deriveBits(privateKey: ours, publicKey: theirs, length: nil)) == fixture.sharedSecret)
        let reverse = try AsymmetricCrypto.importKey(algorithm: algorithm, format: "pkcs8", data: bytes(peer.pkcs8), namedCurve: curve)
        #expect(try hex(AsymmetricCrypto.deriveBits(privateKey: reverse, publicKey: ours.publicKey(), length: nil)) == fixture.sharedSecret)
    }

    @Test("node's deterministic signatures (RSASSA-PKCS1-v1_5 with every hash, Ed25519) are ours, and its RSA-PSS ones verify")
    func nodeSignatures() throws {
        let message = bytes(Self.node.message)
        for name in ["RSASSA-PKCS1-v1_5", "RSA-PSS"] {
            let fixture = try #require(Self.node.keys[name])
            let privateKey = try AsymmetricCrypto.importKey(algorithm: name, format: "pkcs8", data: bytes(fixture.pkcs8), namedCurve: nil)
            for (hash, signature) in try #require(fixture.signatures) {
                let saltLength = name == "RSA-PSS" ? try WebCryptoHash(named: hash, for: name).byteCount : nil
                if name == "RSASSA-PKCS1-v1_5" {
                    #expect(try hex(AsymmetricCrypto.sign(privateKey, hash: hash, saltLength: nil, data: message)) == signature, "\(hash)")
                }
                #expect(try AsymmetricCrypto.verify(privateKey.publicKey(), hash: hash, saltLength: saltLength, signature: bytes(signature), data: message), "\(name) \(hash)")
                if let saltLength {
                    // Valid with the hash's salt length, so known to be invalid with any other.
                    #expect(try !AsymmetricCrypto.verify(privateKey.publicKey(), hash: hash, saltLength: saltLength + 1, signature: bytes(signature), data: message))
                }
            }
        }
        let ed25519 = try #require(Self.node.keys["Ed25519"])
        let key = try AsymmetricCrypto.importKey(algorithm: "Ed25519", format: "pkcs8", data: bytes(ed25519.pkcs8), namedCurve: nil)
        #expect(try hex(AsymmetricCrypto.sign(key, hash: nil, saltLength: nil, data: message)) == ed25519.signature)
    }

    @Test("RSA-OAEP decrypts node's ciphertexts (SHA-1, SHA-256)")
    func nodeCiphertexts() throws {
        let fixture = try #require(Self.node.keys["RSA-OAEP"])
        let key = try AsymmetricCrypto.importJWK(algorithm: "RSA-OAEP", jwk: Self.material(fixture.privateJWK), namedCurve: nil)
        for (hash, ciphertext) in try #require(fixture.ciphertexts) {
            #expect(try AsymmetricCrypto.decrypt(key, hash: hash, label: nil, data: bytes(ciphertext)) == bytes(Self.node.message), "\(hash)")
        }
    }

    @Test("an RSA JWK private key without its primes is factored back to them")
    func rsaJWKWithoutPrimes() throws {
        let fixture = try #require(Self.node.keys["RSASSA-PKCS1-v1_5"])
        var jwk = Self.material(fixture.privateJWK)
        for member in ["p", "q", "dp", "dq", "qi"] { jwk[member] = nil }
        let key = try AsymmetricCrypto.importJWK(algorithm: "RSASSA-PKCS1-v1_5", jwk: jwk, namedCurve: nil)
        let exported = try AsymmetricCrypto.exportJWK(key)
        #expect(Set([exported["p"], exported["q"]]) == Set([Self.material(fixture.privateJWK)["p"], Self.material(fixture.privateJWK)["q"]]))
    }

    // MARK: Errors

    struct Refusal: CustomStringConvertible, Sendable {
        let description: String
        let error: String
        let attempt: @Sendable () throws -> Void
    }

    /// Node's key `name`, imported from its "pkcs8" or "spki".
    @Sendable static func key(_ name: String, _ format: String) throws -> AsymmetricKey {
        let (algorithm, curve) = parameters(name)
        let fixture = node.keys[name]!
        return try AsymmetricCrypto.importKey(algorithm: algorithm, format: format, data: bytes(format == "pkcs8" ? fixture.pkcs8 : fixture.spki), namedCurve: curve)
    }

    static let refusals: [Refusal] = {
        let keys = node.keys
        let p256 = keys["ECDSA P-256"]!, rsa = keys["RSA-PSS"]!, ed = keys["Ed25519"]!
        return [
            Refusal(description: "generating on an unknown curve", error: "NotSupportedError") {
                _ = try AsymmetricCrypto.generate(algorithm: "ECDSA", namedCurve: "P-512", modulusLength: nil, publicExponent: nil)
            },
            Refusal(description: "an RSA publicExponent of 1", error: "OperationError") {
                _ = try AsymmetricCrypto.generate(algorithm: "RSA-PSS", namedCurve: nil, modulusLength: 1024, publicExponent: [1])
            },
            Refusal(description: "an even RSA publicExponent", error: "OperationError") {
                _ = try AsymmetricCrypto.generate(algorithm: "RSA-OAEP", namedCurve: nil, modulusLength: 1024, publicExponent: [1, 0, 0])
            },
            Refusal(description: "generating with the publicExponent 3 (BoringSSL generates with 65537 only)", error: "NotSupportedError") {
                _ = try AsymmetricCrypto.generate(algorithm: "RSASSA-PKCS1-v1_5", namedCurve: nil, modulusLength: 2048, publicExponent: [3])
            },
            Refusal(description: "generating a modulus that is not a multiple of 128 bits (BoringSSL rounds it down)", error: "NotSupportedError") {
                _ = try AsymmetricCrypto.generate(algorithm: "RSA-PSS", namedCurve: nil, modulusLength: 2056, publicExponent: [1, 0, 1])
            },
            Refusal(description: "a P-256 SPKI imported as P-384", error: "DataError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "ECDSA", format: "spki", data: bytes(p256.spki), namedCurve: "P-384")
            },
            Refusal(description: "an RSA PKCS#8 imported as ECDSA", error: "DataError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "ECDSA", format: "pkcs8", data: bytes(rsa.pkcs8), namedCurve: "P-256")
            },
            Refusal(description: "an Ed25519 PKCS#8 imported as X25519", error: "DataError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "X25519", format: "pkcs8", data: bytes(ed.pkcs8), namedCurve: nil)
            },
            Refusal(description: "a SPKI given as PKCS#8", error: "DataError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "Ed25519", format: "pkcs8", data: bytes(ed.spki), namedCurve: nil)
            },
            Refusal(description: "a truncated PKCS#8", error: "DataError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "RSA-PSS", format: "pkcs8", data: Array(bytes(rsa.pkcs8).dropLast()), namedCurve: nil)
            },
            Refusal(description: "a raw P-256 point off the curve", error: "DataError") {
                var point = bytes(p256.raw!)
                point[40] ^= 1
                _ = try AsymmetricCrypto.importKey(algorithm: "ECDSA", format: "raw", data: point, namedCurve: "P-256")
            },
            Refusal(description: "a raw RSA key", error: "NotSupportedError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "RSA-OAEP", format: "raw", data: [1, 2, 3], namedCurve: nil)
            },
            Refusal(description: "an unknown format", error: "NotSupportedError") {
                _ = try AsymmetricCrypto.importKey(algorithm: "Ed25519", format: "pem", data: [1, 2, 3], namedCurve: nil)
            },
            Refusal(description: "a JWK of another curve", error: "DataError") {
                _ = try AsymmetricCrypto.importJWK(algorithm: "ECDH", jwk: material(p256.publicJWK), namedCurve: "P-521")
            },
            Refusal(description: "a JWK without x", error: "DataError") {
                var jwk = material(ed.privateJWK)
                jwk["x"] = nil
                _ = try AsymmetricCrypto.importJWK(algorithm: "Ed25519", jwk: jwk, namedCurve: nil)
            },
            Refusal(description: "a JWK whose x is not d's", error: "DataError") {
                var jwk = material(ed.privateJWK)
                jwk["x"] = material(keys["X25519"]!.publicJWK)["x"]
                _ = try AsymmetricCrypto.importJWK(algorithm: "Ed25519", jwk: jwk, namedCurve: nil)
            },
            Refusal(description: "a JWK with padded base64", error: "DataError") {
                var jwk = material(p256.publicJWK)
                jwk["x"]! += "="
                _ = try AsymmetricCrypto.importJWK(algorithm: "ECDSA", jwk: jwk, namedCurve: "P-256")
            },
            Refusal(description: "an RSA JWK with some of its primes", error: "DataError") {
                var jwk = material(rsa.privateJWK)
                jwk["qi"] = nil
                _ = try AsymmetricCrypto.importJWK(algorithm: "RSA-PSS", jwk: jwk, namedCurve: nil)
            },
            Refusal(description: "a private key exported as SPKI", error: "InvalidAccessError") {
                _ = try AsymmetricCrypto.export(try Self.key("Ed25519", "pkcs8"), format: "spki")
            },
            Refusal(description: "a public key exported as PKCS#8", error: "InvalidAccessError") {
                _ = try AsymmetricCrypto.export(try Self.key("ECDH P-384", "spki"), format: "pkcs8")
            },
            Refusal(description: "signing with a public key", error: "InvalidAccessError") {
                _ = try AsymmetricCrypto.sign(try Self.key("ECDSA P-256", "spki"), hash: "SHA-256", saltLength: nil, data: [])
            },
            Refusal(description: "RSA-PSS with a salt longer than a 2048-bit key allows with SHA-256 (222 bytes)", error: "OperationError") {
                _ = try AsymmetricCrypto.sign(try Self.key("RSA-PSS", "pkcs8"), hash: "SHA-256", saltLength: 223, data: [])
            },
            Refusal(description: "RSA-OAEP decrypting with a label the ciphertext was not made with", error: "OperationError") {
                let ciphertext = bytes(keys["RSA-OAEP"]!.ciphertexts!["SHA-256"]!)
                _ = try AsymmetricCrypto.decrypt(try Self.key("RSA-OAEP", "pkcs8"), hash: "SHA-256", label: [1], data: ciphertext)
            },
            Refusal(description: "RSA-OAEP of more than the key takes", error: "OperationError") {
                _ = try AsymmetricCrypto.encrypt(try Self.key("RSA-OAEP", "spki"), hash: "SHA-256", label: nil, data: [UInt8](repeating: 1, count: 191))
            },
            Refusal(description: "RSA-OAEP decrypting a damaged ciphertext", error: "OperationError") {
                var ciphertext = bytes(keys["RSA-OAEP"]!.ciphertexts!["SHA-256"]!)
                ciphertext[10] ^= 1
                _ = try AsymmetricCrypto.decrypt(try Self.key("RSA-OAEP", "pkcs8"), hash: "SHA-256", label: nil, data: ciphertext)
            },
            Refusal(description: "deriving more bits than the secret has", error: "OperationError") {
                _ = try AsymmetricCrypto.deriveBits(privateKey: try Self.key("ECDH P-256", "pkcs8"), publicKey: try Self.key("ECDH P-256", "spki"), length: 264)
            },
            Refusal(description: "deriving with keys of two curves", error: "InvalidAccessError") {
                _ = try AsymmetricCrypto.deriveBits(privateKey: try Self.key("ECDH P-256", "pkcs8"), publicKey: try Self.key("ECDH P-384", "spki"), length: nil)
            },
            Refusal(description: "X25519 with a small-order public key", error: "OperationError") {
                let zero = try AsymmetricCrypto.importKey(algorithm: "X25519", format: "raw", data: [UInt8](repeating: 0, count: 32), namedCurve: nil)
                _ = try AsymmetricCrypto.deriveBits(privateKey: try Self.key("X25519", "pkcs8"), publicKey: zero, length: nil)
            },
        ]
    }()

    @Test("bad input is refused with the DOMException name the spec gives", arguments: refusals)
    func refused(_ refusal: Refusal) {
        do {
            try refusal.attempt()
            Issue.record("no error")
        } catch let error as WebCryptoError {
            #expect(error.name == refusal.error, "\(error.message)")
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("not a WebCryptoError: \(error)")
        }
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

private func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
}

private func bytes(_ text: String, base64URL: Bool) -> [UInt8] {
    AsymmetricCrypto.bytes(base64URL: text)!
}

private func base64URL(_ hex: String) -> String {
    AsymmetricCrypto.base64URL(bytes(hex)[...])
}
