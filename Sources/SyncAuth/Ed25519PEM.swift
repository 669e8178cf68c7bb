import Crypto
import Foundation

/// Ed25519 keys in the PEM files `openssl genpkey -algorithm ed25519` writes: a public key as
/// SubjectPublicKeyInfo, a private key as PKCS #8. For Ed25519 both are a fixed DER prefix and the
/// 32 key bytes, so a prefix check reads them without an ASN.1 parser.
enum Ed25519PEM {
    static let publicPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]
    static let privatePrefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

    static func publicKey(pem: String) throws(TokenError) -> Curve25519.Signing.PublicKey {
        let bytes = try der(pem, label: "PUBLIC KEY")
        guard bytes.count == publicPrefix.count + 32, bytes.starts(with: publicPrefix),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: bytes.dropFirst(publicPrefix.count))
        else { throw TokenError(.key, "expected an Ed25519 public key (PEM \"PUBLIC KEY\", as openssl pkey -pubout writes)") }
        return key
    }

    static func privateKey(pem: String) throws(TokenError) -> Curve25519.Signing.PrivateKey {
        let bytes = try der(pem, label: "PRIVATE KEY")
        guard bytes.count == privatePrefix.count + 32, bytes.starts(with: privatePrefix),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes.dropFirst(privatePrefix.count))
        else { throw TokenError(.key, "expected an Ed25519 private key (PEM \"PRIVATE KEY\", as openssl genpkey -algorithm ed25519 writes)") }
        return key
    }

    static func pem(publicKey: Curve25519.Signing.PublicKey) -> String {
        wrap(publicPrefix + publicKey.rawRepresentation, label: "PUBLIC KEY")
    }

    static func pem(privateKey: Curve25519.Signing.PrivateKey) -> String {
        wrap(privatePrefix + privateKey.rawRepresentation, label: "PRIVATE KEY")
    }

    private static func der(_ pem: String, label: String) throws(TokenError) -> [UInt8] {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let start = pem.range(of: begin), let stop = pem.range(of: end, range: start.upperBound..<pem.endIndex) else {
            throw TokenError(.key, "expected a PEM block \"\(begin)\"")
        }
        let body = pem[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: String(body)) else { throw TokenError(.key, "the PEM block is not base64") }
        return Array(data)
    }

    private static func wrap(_ der: [UInt8], label: String) -> String {
        "-----BEGIN \(label)-----\n" + Data(der).base64EncodedString() + "\n-----END \(label)-----\n"
    }
}
