import Crypto
import JSON

/// A publisher's signed withdrawal of a patch: Ed25519 with the patch key over the canonical JSON
/// of `{app, issuedAt, kind, patchVersion, reason}` (keys sorted, no whitespace).
///
/// ```json
/// {"kind": "revocation", "app": "demo", "patchVersion": 3, "issuedAt": "2026-11-28T21:00:00Z",
///  "reason": "totals wrong", "key": "<base64 public key>", "signature": "<base64>"}
/// ```
public struct PatchRevocation: Sendable, Equatable {
    public var app: String
    public var patchVersion: Int
    public var issuedAt: String
    public var reason: String
    public var key: String
    public var signature: String

    public init(app: String, patchVersion: Int, issuedAt: String, reason: String, key: String, signature: String) {
        self.app = app
        self.patchVersion = patchVersion
        self.issuedAt = issuedAt
        self.reason = reason
        self.key = key
        self.signature = signature
    }

    /// Signs with a base64 Ed25519 private key (its 32-byte seed, as `hybrid patch keygen` writes).
    public static func sign(app: String, patchVersion: Int, reason: String, issuedAt: String = PatchClock.format(PatchClock.now()),
                            privateKey: String) throws(PatchError) -> PatchRevocation {
        let key = try SignedPatch.signingKey(privateKey)
        var revocation = PatchRevocation(app: app, patchVersion: patchVersion, issuedAt: issuedAt, reason: reason,
                                         key: Base64.encode(Array(key.publicKey.rawRepresentation)), signature: "")
        guard let signature = try? key.signature(for: revocation.canonicalBytes) else { throw PatchError(.badSignature, "signing failed") }
        revocation.signature = Base64.encode(Array(signature))
        return revocation
    }

    public init(json: JSONValue) throws(PatchError) {
        let fields = try PatchWireFields(json, label: "revocation")
        guard fields.object["kind"]?.stringValue == "revocation" else { throw PatchError(.malformed, "revocation.kind: expected \"revocation\"") }
        guard let version = try fields.version("patchVersion"), version > 0 else {
            throw PatchError(.malformed, "revocation.patchVersion: expected a positive integer")
        }
        let issuedAt = try fields.required("issuedAt")
        guard PatchClock.parse(issuedAt) != nil else {
            throw PatchError(.malformed, "revocation.issuedAt: expected an ISO 8601 UTC time such as \"2026-11-28T21:00:00Z\"")
        }
        self.init(app: try fields.required("app"), patchVersion: version, issuedAt: issuedAt, reason: try fields.required("reason"),
                  key: try fields.required("key"), signature: try fields.required("signature"))
    }

    /// The bytes signed and verified.
    public var canonicalBytes: [UInt8] {
        let signed: JSONValue = ["app": .string(app), "issuedAt": .string(issuedAt), "kind": "revocation",
                                 "patchVersion": .number(Double(patchVersion)), "reason": .string(reason)]
        return Array(JSONWriter.write(signed, options: .init(sortedKeys: true)).utf8)
    }

    public var jsonValue: JSONValue {
        ["kind": "revocation", "app": .string(app), "patchVersion": .number(Double(patchVersion)), "issuedAt": .string(issuedAt),
         "reason": .string(reason), "key": .string(key), "signature": .string(signature)]
    }

    /// Refuses a revocation for another app, by a key not in `keys`, or whose signature does not verify.
    public func verify(app expected: String, keys: [String]) throws(PatchError) {
        guard app == expected else { throw PatchError(.wrongApp, "revocation.app: made for \"\(app)\", this app is \"\(expected)\"") }
        guard keys.contains(key) else {
            throw PatchError(.unknownKey, "revocation.key: \(key) is not one of the app's \(keys.count) patch key(s)")
        }
        guard let keyBytes = Base64.decode(key), let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes),
              let signatureBytes = Base64.decode(signature), publicKey.isValidSignature(signatureBytes, for: canonicalBytes) else {
            throw PatchError(.badSignature, "revocation.signature: does not verify over the revocation with the key it names")
        }
    }
}
