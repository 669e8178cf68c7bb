import Foundation
import JSON
@testable import SyncAuth
import Testing

/// What a signed payload may say: times in range, names without control characters, scopes kept
/// byte for byte. Every token here is signed with the verifier's own secret, so what refuses it is
/// the claims, not the signature.
@Suite("token claims")
struct TokenClaimsTests {
    typealias F = TokenFixture

    @Test("the payloads of the security report are refused as claims instead of stopping the server", arguments: [
        #"{"sub":"alice","scopes":[],"exp":1e19}"#,
        #"{"sub":"alice","scopes":[],"exp":-1e19}"#,
        #"{"sub":"alice","scopes":[],"exp":1800000600,"iat":1e300}"#,
        #"{"sub":"alice","scopes":[],"exp":1800000600,"nbf":1e300}"#,
        #"{"sub":"alice","scopes":[],"exp":9223372036854775807}"#,
    ])
    func reportedPayloads(payload: String) {
        #expect(F.refusal(F.token(payload: payload))?.reason == .claims)
    }

    @Test("a time claim outside 1970 to 9999 or not in whole seconds is refused as claims, naming the claim and the range",
          arguments: ["exp", "iat", "nbf"], [1e19, -1e19, 1e300, -1e300, 9.3e18, -1, 253_402_300_800, 1_800_000_000.5, 1e-300])
    func timeOutOfRange(claim: String, seconds: Double) throws {
        let error = try #require(F.refusal(F.token(payload: F.payload([claim: .number(seconds)]))))
        #expect(error.reason == .claims)
        #expect(error.message.hasPrefix("\(claim): expected "), "\(error)")
        #expect(error.message.contains("whole seconds since 1970, from 0 to 253402300799"), "\(error)")
    }

    @Test("a time claim that is not a number is refused as claims, naming the claim and the type it had",
          arguments: ["exp", "iat", "nbf"], [JSONValue.string("1800000600"), .null, .bool(true), .array([]), .object([:])])
    func timeOfWrongType(claim: String, value: JSONValue) throws {
        let error = try #require(F.refusal(F.token(payload: F.payload([claim: value]))))
        #expect(error.reason == .claims)
        #expect(error.message.hasPrefix("\(claim): expected "), "\(error)")
        #expect(error.message.hasSuffix("got \(value.typeName)"), "\(error)")
    }

    @Test("the edges of the time range are accepted: iat and nbf at 0, exp at the last second of 9999")
    func timeRangeEdges() throws {
        let payload = F.payload(["iat": 0, "nbf": 0, "exp": .number(Double(TokenClaims.timeRange.upperBound))])
        let claims = try F.hsVerifier.verify(F.token(payload: payload), now: F.now)
        #expect(claims.expiresAt == 253_402_300_799)
        #expect(claims.issuedAt == 0)
        #expect(claims.notBefore == 0)
    }

    /// C0 controls, DEL, C1 controls (NEL among them), and the Unicode line and paragraph separators.
    static let controlNames = ["bob\nuser:bob", "\u{0}", "bob\u{0}", "a\u{1F}", "\t", "bob\r", "\u{7F}", "\u{80}", "bob\u{85}user:bob", "\u{9F}",
                               "bob\u{2028}user:bob", "\u{2029}"]

    @Test("a subject holding a control character or a line separator is refused as claims, naming sub and the character", arguments: controlNames)
    func controlInSubject(subject: String) throws {
        let error = try #require(F.refusal(F.token(payload: F.payload(["sub": .string(subject)]))))
        #expect(error.reason == .claims)
        #expect(error.message.hasPrefix("sub: expected no control character"), "\(error)")
        let first = try #require(subject.unicodeScalars.first(where: TokenClaims.isControl))
        #expect(error.message.contains(String(format: "U+%04X", first.value)), "\(error)")
    }

    @Test("a scope holding a control character or a line separator is refused as claims, naming scopes/N", arguments: controlNames)
    func controlInScope(scope: String) throws {
        let error = try #require(F.refusal(F.token(payload: F.payload(["scopes": ["user:bob", .string(scope)]]))))
        #expect(error.reason == .claims)
        #expect(error.message.hasPrefix("scopes/1: expected no control character"), "\(error)")
    }

    @Test("names that only look unusual are kept: spaces, accents, no-break space, emoji, right-to-left text",
          arguments: ["Zoë Ünal", "team:t 1", "a\u{A0}b", "🙂", "user:\u{5D0}\u{5D1}", "x\u{200B}y"])
    func unusualNames(name: String) throws {
        let claims = try F.hsVerifier.verify(F.token(payload: F.payload(["sub": .string(name), "scopes": [.string(name)]])), now: F.now)
        #expect(Array(claims.subject.utf8) == Array(name.utf8))
        #expect(claims.scopes.map { Array($0.utf8) } == [Array(name.utf8)])
    }

    @Test("team:café precomposed (NFC) and decomposed (NFD) come out of verify() as the different bytes they went in as")
    func canonicallyEquivalentScopes() throws {
        let nfc = "team:caf\u{E9}", nfd = "team:cafe\u{301}"
        #expect(nfc == nfd, "Swift's String == holds them equal, which is why SyncAuth must not compare or merge by it")
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        let claims = try F.hsVerifier.verify(F.token(payload: F.payload(["sub": .string("zo\u{65}\u{308}"), "scopes": [.string(nfc), .string(nfd)]])),
                                             now: F.now)
        #expect(claims.scopes.map { Array($0.utf8) } == [Array(nfc.utf8), Array(nfd.utf8)])
        #expect(Array(claims.subject.utf8) == Array("zo\u{65}\u{308}".utf8))
    }

    @Test("a scope given twice, byte for byte, stays twice and in its place")
    func repeatedScope() throws {
        let claims = try F.hsVerifier.verify(F.token(payload: F.payload(["scopes": ["team:t1", "user:alice", "team:t1"]])), now: F.now)
        #expect(claims.scopes == ["team:t1", "user:alice", "team:t1"])
    }

    @Test("claims compare byte for byte: canonically equivalent subjects or scopes are different claims")
    func byteExactEquality() {
        let nfc = TokenClaims(subject: "zo\u{EB}", scopes: ["team:caf\u{E9}"], expiresAt: F.now)
        #expect(nfc == TokenClaims(subject: "zo\u{EB}", scopes: ["team:caf\u{E9}"], expiresAt: F.now))
        #expect(nfc != TokenClaims(subject: "zo\u{EB}", scopes: ["team:cafe\u{301}"], expiresAt: F.now))
        #expect(nfc != TokenClaims(subject: "zoe\u{308}", scopes: ["team:caf\u{E9}"], expiresAt: F.now))
        #expect(nfc != TokenClaims(subject: "zo\u{EB}", scopes: ["team:caf\u{E9}"], expiresAt: F.now, notBefore: F.now))
    }

    @Test("a token is refused as expired from its exp second on, and accepted the second before",
          arguments: [(0, false), (-1, false), (-86_400, false), (1, true), (3600, true)] as [(Int64, Bool)])
    func expiry(offset: Int64, accepted: Bool) {
        let refusal = F.refusal(F.token(payload: F.payload(["exp": .number(Double(F.now + offset))])))
        if accepted {
            #expect(refusal == nil)
        } else {
            #expect(refusal == TokenError(.expired, "the token expired at \(F.now + offset) (now \(F.now))"))
        }
    }

    @Test("a token without sub or exp, or with a sub or scope that is empty or not a string, is refused as claims, naming it",
          arguments: [(F.payload([:], removing: ["sub"]), "sub"), (F.payload(["sub": ""]), "sub"), (F.payload(["sub": 7]), "sub"),
                      (F.payload([:], removing: ["exp"]), "exp"), (F.payload(["scopes": "team:t1"]), "scopes"),
                      (F.payload(["scopes": ["team:t1", ""]]), "scopes/1"), (F.payload(["scopes": [7]]), "scopes/0"),
                      (.array([.object(F.payload)]), "payload")])
    func missingOrMistyped(payload: JSONValue, named: String) throws {
        let error = try #require(F.refusal(F.token(payload: payload)))
        #expect(error.reason == .claims)
        #expect(error.message.hasPrefix(named + ": expected "), "\(error)")
    }

    @Test("a token is refused as notYetValid while its nbf is later than now (no leeway), and accepted from that second on",
          arguments: [(1, false), (60, false), (86_400 * 365, false), (0, true), (-1, true), (-3600, true)] as [(Int64, Bool)])
    func notBefore(offset: Int64, accepted: Bool) throws {
        let token = F.token(payload: F.payload(["nbf": .number(Double(F.now + offset))]))
        let refusal = F.refusal(token)
        if accepted {
            #expect(refusal == nil)
            #expect(try F.hsVerifier.verify(token, now: F.now).notBefore == F.now + offset)
        } else {
            #expect(refusal?.reason == .notYetValid)
            #expect(refusal?.message.contains("not valid before \(F.now + offset)") == true, "\(String(describing: refusal))")
        }
    }

    @Test("nbf and iat round-trip through TokenSigner")
    func signedTimes() throws {
        let claims = TokenClaims(subject: "alice", scopes: [], expiresAt: F.now + 60, issuedAt: F.now - 5, notBefore: F.now - 5)
        #expect(try F.hsVerifier.verify(F.hsSigner.sign(claims), now: F.now) == claims)
    }
}
