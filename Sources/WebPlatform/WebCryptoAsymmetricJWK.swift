import Foundation

/// JSON Web Keys for the asymmetric algorithms (RFC 7518 §6 for EC and RSA, RFC 8037 for Ed25519,
/// X25519, Ed448 and X448): only the key-material members; JS checks alg, use, key_ops and ext.
extension AsymmetricCrypto {
    /// jwk: the JWK's string members (kty, crv, x, y, d, n, e, p, q, dp, dq, qi).
    static func importJWK(algorithm: String, jwk: [String: String], namedCurve: String?) throws(WebCryptoError) -> AsymmetricKey {
        let members = JWKMembers(jwk: jwk, algorithm: algorithm)
        switch algorithm {
        case "ECDSA", "ECDH":
            let curve = try checkCurve(namedCurve, for: algorithm)
            try members.expect("kty", "EC")
            try members.expect("crv", curve)
            let length = coordinateLength(curve)
            let x = try members.bytes("x", length: length), y = try members.bytes("y", length: length)
            let d = try members.optionalBytes("d", length: length)
            return AsymmetricKey(algorithm: algorithm, material: try ecKey(algorithm: algorithm, curve: curve, d: d, point: [4] + x + y, format: "jwk"))
        case _ where okpAlgorithms.contains(algorithm):
            try members.expect("kty", "OKP")
            try members.expect("crv", algorithm)
            let x = try members.bytes("x", length: okpKeyLength(algorithm))
            let d = try members.optionalBytes("d", length: okpKeyLength(algorithm))
            return AsymmetricKey(algorithm: algorithm, material: try okpKey(algorithm: algorithm, privateKey: d, publicKey: x, format: "jwk"))
        case _ where rsaAlgorithms.contains(algorithm):
            try members.expect("kty", "RSA")
            let n = try members.bytes("n"), e = try members.bytes("e")
            let d = try members.optionalBytes("d")
            let primes = try ["p", "q", "dp", "dq", "qi"].map { name throws(WebCryptoError) in try members.optionalBytes(name) }
            guard d != nil || primes.allSatisfy({ $0 == nil }) else { throw .data("jwk: an RSA public key has no p, q, dp, dq or qi") }
            guard primes.allSatisfy({ $0 == nil }) || primes.allSatisfy({ $0 != nil }) else {
                throw .data("jwk: expected all of p, q, dp, dq and qi or none of them, got \(zip(["p", "q", "dp", "dq", "qi"], primes).filter { $0.1 != nil }.map(\.0))")
            }
            return try rsaKey(algorithm: algorithm, n: n, e: e, d: d, p: primes[0], q: primes[1], format: "jwk")
        default:
            throw .notSupported("importKey: \(algorithm) is not an asymmetric algorithm this host implements")
        }
    }

    /// The key-material members only (kty, crv, x, y, d, n, e, p, q, dp, dq, qi), base64url without padding.
    static func exportJWK(_ key: AsymmetricKey) throws(WebCryptoError) -> [String: String] {
        if let (publicKey, privateKey) = key.material.curveBytes {
            var jwk: [String: String]
            if let curve = key.namedCurve {
                let length = coordinateLength(curve)
                jwk = ["kty": "EC", "crv": curve, "x": base64URL(publicKey[1...length]), "y": base64URL(publicKey[(1 + length)...])]
            } else {
                jwk = ["kty": "OKP", "crv": key.algorithm, "x": base64URL(publicKey[...])]
            }
            if let privateKey { jwk["d"] = base64URL(privateKey[...]) }
            return jwk
        }
        if let numbers = try rsaPrivateNumbers(key.material) {
            return ["kty": "RSA", "n": base64URL(numbers.n[...]), "e": base64URL(numbers.e[...]), "d": base64URL(numbers.d[...]),
                    "p": base64URL(numbers.p[...]), "q": base64URL(numbers.q[...]), "dp": base64URL(numbers.dp[...]),
                    "dq": base64URL(numbers.dq[...]), "qi": base64URL(numbers.qi[...])]
        }
        guard let (n, e) = try rsaPublicNumbers(key.material) else { throw .operation("exportKey: the \(key.algorithm) key has no JWK form") }
        return ["kty": "RSA", "n": base64URL(n[...]), "e": base64URL(e[...])]
    }

    static func base64URL(_ bytes: ArraySlice<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// RFC 7515 §2's base64url without padding; nil for anything else (padding, other characters,
    /// a length no encoding has).
    static func bytes(base64URL text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                                    || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }),
              text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { Array($0) }
    }
}

/// A JWK's members as importJWK reads them, each failure a DataError naming the member.
struct JWKMembers {
    let jwk: [String: String]
    let algorithm: String

    func expect(_ name: String, _ value: String) throws(WebCryptoError) {
        guard let actual = jwk[name] else { throw .data("jwk: a \(algorithm) key needs \(name) \"\(value)\", it has no \(name)") }
        guard actual == value else { throw .data("jwk: expected \(name) \"\(value)\" for \(algorithm), got \"\(actual)\"") }
    }

    func bytes(_ name: String, length: Int? = nil) throws(WebCryptoError) -> [UInt8] {
        guard let bytes = try optionalBytes(name, length: length) else { throw .data("jwk: a \(algorithm) key needs the member \(name)") }
        return bytes
    }

    func optionalBytes(_ name: String, length: Int? = nil) throws(WebCryptoError) -> [UInt8]? {
        guard let text = jwk[name] else { return nil }
        guard let bytes = AsymmetricCrypto.bytes(base64URL: text) else { throw .data("jwk: \(name): expected base64url without padding") }
        if let length, bytes.count != length {
            throw .data("jwk: \(name): expected \(length) bytes for \(algorithm), got \(bytes.count)")
        }
        return bytes
    }
}
