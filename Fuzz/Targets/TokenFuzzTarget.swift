import Crypto
import Foundation
import JSON
import SyncAuth

/// JSON Web Tokens as `hybrid sync-server` verifies them (`TokenVerifier.verify`, which reads the
/// payload with `TokenClaims`), against a fixed HS256 secret and Ed25519 key and a fixed clock.
/// Random bytes rarely carry a valid signature, so the input is tried four ways, each signed with
/// the fuzzer's own keys (by this harness, not by `TokenSigner`) where it needs to be: as a token's
/// text as it is; with its first two parts signed again; as a payload's JSON text under an HS256
/// header; and as a header's JSON text over a payload that verifies. Nothing may trap the verifier.
/// Whatever it accepts came through the header's own `alg` with the key of that algorithm, with
/// no `crit`, and a signature part that is the one encoding of its bytes; its subject and scopes
/// are non-empty, free of control characters and the payload's bytes exactly (nothing normalised
/// or merged); its times are in range, `exp` after now and `nbf` not after it; and its claims,
/// signed again by `TokenSigner`, verify to the same claims, byte for byte.
enum TokenFuzzTarget {
    static let target = FuzzTarget(name: "token", summary: "TokenVerifier.verify + TokenClaims: the input as a token, re-signed, as a payload and as a header; accepted claims checked and re-signed") { input throws(FuzzFinding) in
        try run(input)
    }

    /// The keys the seed corpus (`Fuzz/Corpus/token/`) is signed with; made for fuzzing, secret to nobody.
    static let secret = Array("the token fuzz target's HS256 secret".utf8)
    // Never written after it is made, and only read: swift-crypto's key types are not Sendable.
    nonisolated(unsafe) static let privateKey = try! Curve25519.Signing.PrivateKey(
        rawRepresentation: Data(base64Encoded: "Tu+CJDKlegwjgppEvW0R4eM17GtQoVoUr6f3bGbrT0E=")!)
    static let verifiers = (hs256: TokenVerifier(secret: secret), edDSA: TokenVerifier(publicKey: privateKey.publicKey))
    static let signers = (hs256: TokenSigner(secret: secret), edDSA: TokenSigner(privateKey: privateKey))
    /// 2027-01-15T08:00:00Z: a fixed clock, so `exp` and `nbf` decide the same way in every run.
    static let now: Int64 = 1_800_000_000

    /// The verifiers the input meets: each with one key, so that what one accepts tells which key verified it.
    enum Key: String, CaseIterable {
        case HS256, EdDSA

        var verifier: TokenVerifier { self == .HS256 ? TokenFuzzTarget.verifiers.hs256 : TokenFuzzTarget.verifiers.edDSA }

        var signer: TokenSigner { self == .HS256 ? TokenFuzzTarget.signers.hs256 : TokenFuzzTarget.signers.edDSA }

        func signature(of signingInput: [UInt8]) -> [UInt8] {
            switch self {
            case .HS256: Array(HMAC<SHA256>.authenticationCode(for: signingInput, using: SymmetricKey(data: TokenFuzzTarget.secret)))
            case .EdDSA: (try? Array(TokenFuzzTarget.privateKey.signature(for: signingInput))) ?? []
            }
        }
    }

    static let validPayload = Array(#"{"sub":"alice","scopes":["user:alice","team:t1"],"exp":1800000600}"#.utf8)

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        // The verifier takes a String: the bytes as the server's header decoding would give them.
        let text = Array(String(decoding: input, as: UTF8.self).utf8)
        for key in Key.allCases { try check(text, key) }
        let parts = text.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count >= 2 {
            let signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
            // Each signature to both verifiers: a signature by one key must never pass the other's.
            for signer in Key.allCases {
                let token = signingInput + [UInt8(ascii: ".")] + base64URL(signer.signature(of: signingInput))
                for key in Key.allCases { try check(token, key) }
            }
        }
        // The claims are read the same whichever key verified them: HS256 alone for the payload (an
        // Ed25519 signature costs ten HMACs).
        try check(signed(header: Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), payload: input, .HS256), .HS256)
        for key in Key.allCases { try check(signed(header: input, payload: validPayload, key), key) }
    }

    static func signed(header: [UInt8], payload: [UInt8], _ key: Key) -> [UInt8] {
        let signingInput = base64URL(header) + [UInt8(ascii: ".")] + base64URL(payload)
        return signingInput + [UInt8(ascii: ".")] + base64URL(key.signature(of: signingInput))
    }

    /// Verifies `token` with `key`'s verifier; checks what it accepts.
    static func check(_ token: [UInt8], _ key: Key) throws(FuzzFinding) {
        let text = String(decoding: token, as: UTF8.self)
        let claims: TokenClaims
        do {
            claims = try key.verifier.verify(text, now: now)
        } catch {
            guard !error.message.isEmpty else { throw FuzzFinding("token", "a refusal (\(error.reason)) without a message") }
            return
        }
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map(Array.init)
        guard parts.count == 3, let headerBytes = canonicalBase64URL(parts[0]), let payloadBytes = canonicalBase64URL(parts[1]),
              canonicalBase64URL(parts[2]) != nil,
              case .object(let header)? = try? JSONParser.parse(headerBytes), case .object(let payload)? = try? JSONParser.parse(payloadBytes)
        else { throw FuzzFinding("token", "accepted, though not three parts each the one base64url encoding of JSON objects: \(text)") }
        guard header["alg"] == .string(key.rawValue) else {
            throw FuzzFinding("token", "accepted by the \(key.rawValue) key with the header \(JSONValue.object(header))")
        }
        guard header["crit"] == nil else { throw FuzzFinding("token", "accepted with a crit: \(JSONValue.object(header))") }
        try checkName(claims.subject, "sub")
        guard case .string(let sub)? = payload["sub"], Array(sub.utf8) == Array(claims.subject.utf8) else {
            throw FuzzFinding("token", "the subject \(Array(claims.subject.utf8)) is not the payload's sub: \(JSONValue.object(payload))")
        }
        let scopes: [String] = payload["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard scopes.map({ Array($0.utf8) }) == claims.scopes.map({ Array($0.utf8) }) else {
            throw FuzzFinding("token", "the scopes \(claims.scopes.map { Array($0.utf8) }) are not the payload's: \(JSONValue.object(payload))")
        }
        for (index, scope) in claims.scopes.enumerated() { try checkName(scope, "scopes/\(index)") }
        try checkTime(claims.expiresAt, "exp", payload)
        try checkTime(claims.issuedAt, "iat", payload)
        try checkTime(claims.notBefore, "nbf", payload)
        guard now < claims.expiresAt else { throw FuzzFinding("token", "accepted at \(now), expired at \(claims.expiresAt)") }
        if let notBefore = claims.notBefore, notBefore > now { throw FuzzFinding("token", "accepted at \(now), valid only from \(notBefore)") }

        let again: TokenClaims
        do {
            again = try key.verifier.verify(key.signer.sign(claims), now: now)
        } catch {
            throw FuzzFinding("token", "accepted claims signed again by TokenSigner are refused: \(error)\n\(claims)")
        }
        guard again == claims, Array(again.subject.utf8) == Array(claims.subject.utf8),
              again.scopes.map({ Array($0.utf8) }) == claims.scopes.map({ Array($0.utf8) }) else {
            throw FuzzFinding("token", "accepted claims changed through TokenSigner: \(claims) became \(again)")
        }
    }

    /// Non-empty, and no C0 or C1 control, DEL, or line or paragraph separator.
    static func checkName(_ name: String, _ field: String) throws(FuzzFinding) {
        guard !name.isEmpty else { throw FuzzFinding("token", "accepted with an empty \(field)") }
        if let scalar = name.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 }) {
            throw FuzzFinding("token", "accepted with U+\(String(scalar.value, radix: 16)) in \(field): \(Array(name.utf8))")
        }
    }

    /// Whole seconds from 1970 to the end of 9999, and the number the payload holds (nil when it holds none).
    static func checkTime(_ seconds: Int64?, _ claim: String, _ payload: JSONObject) throws(FuzzFinding) {
        guard let seconds else {
            guard payload[claim] == nil else { throw FuzzFinding("token", "\(claim) \(payload[claim]!) was dropped") }
            return
        }
        guard (0...253_402_300_799).contains(seconds), payload[claim] == .number(Double(seconds)) else {
            throw FuzzFinding("token", "accepted with \(claim) \(seconds), the payload's \(payload[claim].map(\.description) ?? "none")")
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> [UInt8] {
        Array(Data(bytes).base64EncodedString().utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        })
    }

    /// The bytes `text` encodes, when `text` is the one base64url encoding of them (no padding,
    /// unused bits zero); nil otherwise.
    static func canonicalBase64URL(_ text: [UInt8]) -> [UInt8]? {
        var standard = text.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        standard += Array(repeating: UInt8(ascii: "="), count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        let bytes = Array(data)
        return base64URL(bytes) == text ? bytes : nil
    }
}
