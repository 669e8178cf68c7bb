import Crypto
import JSON
#if canImport(PatchProtocol)
import PatchProtocol  // SignedPatch, PatchError, PatchClock and PatchTrust, where PatchProtocol holds them
#endif

/// A publisher's signed revocation of one patch version, as the patch server hands it out:
///
/// ```json
/// {"kind": "revocation", "app": "demo", "patchVersion": 3, "issuedAt": "2026-11-28T21:00:00Z",
///  "reason": "…", "key": "<base64 public key>", "signature": "<base64 Ed25519>"}
/// ```
///
/// The signature covers the canonical JSON (keys sorted, no whitespace) of `{app, issuedAt, kind,
/// patchVersion, reason}`, as a patch's covers its manifest.
public struct SignedRevocation: Sendable, Equatable {
    var app: String
    var patchVersion: Int
    var issuedAt: String
    var reason: String
    var key: String
    var signature: String

    init(json: JSONValue) throws(PatchError) {
        guard case .object(let object) = json, object["kind"]?.stringValue == "revocation" else {
            throw PatchError(.malformed, "revocation: expected an object with \"kind\": \"revocation\"")
        }
        guard let app = object["app"]?.stringValue, let version = object["patchVersion"]?.intValue, version > 0,
              let issuedAt = object["issuedAt"]?.stringValue, let reason = object["reason"]?.stringValue,
              let key = object["key"]?.stringValue, let signature = object["signature"]?.stringValue else {
            throw PatchError(.malformed, "revocation: expected app, patchVersion (a positive integer), issuedAt, reason, key and signature")
        }
        self.app = app
        patchVersion = version
        self.issuedAt = issuedAt
        self.reason = reason
        self.key = key
        self.signature = signature
    }

    /// The bytes signed.
    var canonicalBytes: [UInt8] {
        let object: JSONObject = ["app": .string(app), "issuedAt": .string(issuedAt), "kind": "revocation",
                                  "patchVersion": .number(Double(patchVersion)), "reason": .string(reason)]
        return JSONWriter.bytes(.object(object), options: .init(sortedKeys: true))
    }

    /// A revocation of `patchVersion` signed with `privateKey` (base64, as `hybrid patch keygen`
    /// writes it), as the protocol's JSON.
    public static func sign(app: String, patchVersion: Int, reason: String, issuedAt: String = PatchClock.format(PatchClock.now()),
                            privateKey: String) throws(PatchError) -> JSONValue {
        let key = try PatchSigner.signingKey(privateKey)
        var object: JSONObject = ["kind": "revocation", "app": .string(app), "patchVersion": .number(Double(patchVersion)),
                                  "issuedAt": .string(issuedAt), "reason": .string(reason)]
        let signed = JSONWriter.bytes(.object(object), options: .init(sortedKeys: true))
        guard let signature = try? key.signature(for: signed) else { throw PatchError(.storage, "revocation: signing failed") }
        object.appendUnique("key", .string(Base64.encode(Array(key.publicKey.rawRepresentation))))
        object.appendUnique("signature", .string(Base64.encode(Array(signature))))
        return .object(object)
    }

    /// Refuses a revocation for another app, signed by a key not among app.json's patchKeys, or
    /// whose signature does not verify: such a one changes nothing.
    func verify(trust: PatchTrust) throws(PatchError) {
        let label = "revocation of patch \(patchVersion)"
        guard app == trust.app else {
            throw PatchError(.wrongApp, "\(label): app: made for \"\(app)\", this app is \"\(trust.app)\"")
        }
        guard trust.keys.contains(key) else {
            throw PatchError(.unknownKey, "\(label): key: \(key) is not one of app.json's patchKeys")
        }
        guard let keyBytes = Base64.decode(key), let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes),
              let signatureBytes = Base64.decode(signature), publicKey.isValidSignature(signatureBytes, for: canonicalBytes) else {
            throw PatchError(.badSignature, "\(label): signature: does not verify with the key it names")
        }
    }
}
