import Foundation
import JSON
@testable import SyncAuth
import Testing

/// Signatures: only the server's key makes one, one token string carries it, and the public key is
/// no HMAC secret in any of the ways it can be written down.
@Suite("token signatures")
struct TokenSignatureTests {
    typealias F = TokenFixture

    /// The ways an attacker may write down the server's Ed25519 public key to use it as an HS256
    /// secret: the PEM file as served, its DER, the raw 32 bytes and their text forms.
    enum PublicKeyEncoding: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case pem, pemWithoutNewline, pemCRLF, der, derBase64, raw, rawBase64, rawBase64URL, rawHex

        var testDescription: String { rawValue }

        func secret(of pem: String) -> [UInt8] {
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let der = Array(Data(base64Encoded: body)!)
            let raw = Array(der.dropFirst(Ed25519PEM.publicPrefix.count))
            switch self {
            case .pem: return Array(pem.utf8)
            case .pemWithoutNewline: return Array(pem.utf8.dropLast())
            case .pemCRLF: return Array(pem.replacingOccurrences(of: "\n", with: "\r\n").utf8)
            case .der: return der
            case .derBase64: return Array(body.utf8)
            case .raw: return raw
            case .rawBase64: return Array(Data(raw).base64EncodedString().utf8)
            case .rawBase64URL: return Array(Base64URL.encode(raw).utf8)
            case .rawHex: return Array(raw.map { String(format: "%02x", $0) }.joined().utf8)
            }
        }
    }

    @Test("an HS256 token signed with the server's Ed25519 public key as the secret is refused, whatever encoding of the key",
          arguments: PublicKeyEncoding.allCases)
    func publicKeyAsSecret(encoding: PublicKeyEncoding) {
        let forger = TokenSigner(secret: encoding.secret(of: F.edKeys.publicKey))
        let hs256 = F.token(payload: .object(F.payload), signer: forger)
        // A server with the public key only has no HS256 to pick; one with a secret as well checks its own secret.
        #expect(F.refusal(hs256, by: F.edVerifier)?.reason == .algorithm)
        #expect(F.refusal(hs256, by: F.bothVerifier)?.reason == .signature)
        // An HMAC under the alg EdDSA is no Ed25519 signature.
        let edDSA = F.token(header: ["alg": "EdDSA", "typ": "JWT"], payload: .object(F.payload), signer: forger)
        #expect(F.refusal(edDSA, by: F.edVerifier)?.reason == .signature)
        #expect(F.refusal(edDSA, by: F.bothVerifier)?.reason == .signature)
    }

    /// Changes to a valid signature that a careless verifier might let through.
    enum Malleation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case firstBitFlipped, lastByteFlipped, lastByteDropped, byteAppended, emptied, zeroed, halvesSwapped
        /// Ed25519's S + ℓ (the group order): the same point arithmetic, so a verifier that does not
        /// insist on S < ℓ accepts a second signature for the same message.
        case groupOrderAddedToS
        /// The last base64url character's unused low bits set: the same bytes under a lax decoder,
        /// a different token string.
        case unusedBitsSet
        /// A "=" of padding, which no JWT part has.
        case padded
        case otherTokensSignature

        var testDescription: String { rawValue }

        static let groupOrder: [UInt8] = [0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10]

        /// `token` with its signature part changed.
        func apply(to token: String, other: String) -> String {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let text = parts[2]
            var bytes = Base64URL.decode(Substring(text))!
            var changed: String?
            switch self {
            case .firstBitFlipped: bytes[0] ^= 1
            case .lastByteFlipped: bytes[bytes.count - 1] ^= 0x80
            case .lastByteDropped: bytes.removeLast()
            case .byteAppended: bytes.append(0)
            case .emptied: bytes = []
            case .zeroed: bytes = Array(repeating: 0, count: bytes.count)
            case .halvesSwapped: bytes = Array(bytes[(bytes.count / 2)...] + bytes[..<(bytes.count / 2)])
            case .groupOrderAddedToS:
                // S is the second half, little-endian; S < ℓ < 2²⁵³, so S + ℓ fits its 32 bytes.
                var carry = 0
                for index in 0..<min(32, bytes.count) {
                    let position = bytes.count - 32 + index
                    let sum = Int(bytes[position]) + Int(Self.groupOrder[index]) + carry
                    bytes[position] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
            case .unusedBitsSet:
                let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
                let last = alphabet.firstIndex(of: text.last!)!
                changed = String(text.dropLast()) + String(alphabet[last | 1])
            case .padded: changed = text + "="
            case .otherTokensSignature: changed = other.split(separator: ".", omittingEmptySubsequences: false)[2].description
            }
            return parts[0] + "." + parts[1] + "." + (changed ?? Base64URL.encode(bytes))
        }
    }

    enum Algorithm: String, CaseIterable, Sendable { case HS256, EdDSA }

    @Test("a valid token with its signature changed in any of these ways is refused", arguments: Algorithm.allCases, Malleation.allCases)
    func malleatedSignature(algorithm: Algorithm, malleation: Malleation) throws {
        let signer = algorithm == .HS256 ? F.hsSigner : F.edSigner
        let header: JSONValue = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        let token = F.token(header: header, payload: .object(F.payload), signer: signer)
        let other = F.token(header: header, payload: F.payload(["sub": "bob"]), signer: signer)
        #expect(F.refusal(token, by: F.bothVerifier) == nil)
        let malleated = malleation.apply(to: token, other: other)
        try #require(malleated != token, "the malleation changed nothing")
        let reason = F.refusal(malleated, by: F.bothVerifier)?.reason
        // A signature part that is not the one encoding of some bytes is malformed; any other change fails the signature.
        #expect(reason == ([.unusedBitsSet, .padded].contains(malleation) ? .malformed : .signature))
    }

    @Test("a valid token with its header or payload changed after signing is refused as signature", arguments: Algorithm.allCases)
    func tamperedSigningInput(algorithm: Algorithm) {
        let signer = algorithm == .HS256 ? F.hsSigner : F.edSigner
        let header: JSONValue = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        let parts = F.token(header: header, payload: .object(F.payload), signer: signer).split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(JSONWriter.bytes(F.payload(["sub": "bob"])))
        let otherHeader = Base64URL.encode(JSONWriter.bytes(["alg": .string(algorithm.rawValue), "typ": "jwt"]))
        #expect(F.refusal(parts[0] + "." + otherPayload + "." + parts[2], by: F.bothVerifier)?.reason == .signature)
        #expect(F.refusal(otherHeader + "." + parts[1] + "." + parts[2], by: F.bothVerifier)?.reason == .signature)
    }

    @Test("base64url parts decode only from their one encoding", arguments: [
        ("QQ", true), ("QR", false), ("QUI", true), ("QUJ", false), ("QUJD", true), ("Q", false), ("QQ=", false), ("QQ==", false), ("", true),
    ])
    func canonicalBase64URL(text: String, decodes: Bool) {
        #expect((Base64URL.decode(Substring(text)) != nil) == decodes)
    }
}
