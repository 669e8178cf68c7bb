import Bridge
import Crypto
import CurlTransport
import HTTPCaching
import JSON
import Synchronization
import SystemIO

/// Signs requests with HTTP Message Signatures (RFC 9421), so that a server can tell a call came
/// from the app: `Content-Digest` (RFC 9530, SHA-256) over the body, then `Signature-Input` and
/// `Signature` (label `sig1`) over the signer's components, `created` and `keyid` and `alg`.
///
/// ```json
/// "network": {"signers": {"api": {"algorithm": "ed25519", "keyFile": "keys/api.pem", "components": ["@method", "@target-uri", "x-app"]}}}
/// ```
///
/// ```js
/// await Hybrid.call("network", "request", { url, json: order, sign: "api" });
/// ```
///
/// The key is read from its file by native code and never reaches JS. Signed once per call: a
/// retry sends the same signature; a redirect to another URL carries it too, which a server that
/// checks `@target-uri` will refuse.
package struct RequestSigner {
    let name: String
    let settings: AppNetworkSettings.SignerSettings

    /// The signer `name` of the app's, or E_BAD_PARAMS at /sign.
    package init(_ name: String, app: AppContext) throws(BridgeError) {
        guard let settings = app.network.signers[name] else {
            let known = app.network.signers.keys.sorted()
            throw BridgeError.badParams("/sign", "no signer \"\(name)\" in app.json network.signers"
                                        + (known.isEmpty ? " (it declares none)" : "; it declares \(known.joined(separator: ", "))"))
        }
        self.name = name
        self.settings = settings
    }

    /// The headers to add to `request`: `Content-Digest` (with a body), `Signature-Input`,
    /// `Signature`. `created` is seconds since the epoch.
    package func headers(for request: TransferRequest, created: Int = Int(HTTPDate.now())) throws(BridgeError) -> [(name: String, value: String)] {
        var added: [(name: String, value: String)] = []
        added.reserveCapacity(3)
        var components = settings.components
        var digest: String?
        if let body = request.body {
            let value = "sha-256=:" + Base64.encode(Array(SHA256.hash(data: body))) + ":"
            added.append(("Content-Digest", value))
            digest = value
            if !components.contains("content-digest") { components.append("content-digest") }
        }
        let target: Target
        do { target = Target(try URLTarget(request.url)) } catch { throw error.bridgeError }
        var parameters = "("
        for (index, component) in components.enumerated() {
            parameters += index == 0 ? "\"" : " \""
            parameters += component
            parameters += "\""
        }
        parameters += ");created=\(created);keyid=\"\(settings.keyId)\";alg=\"\(settings.algorithm.rawValue)\""
        // The signature base is written as bytes: a String per line and their join were most of
        // what signing cost besides the hashes.
        var base: [UInt8] = []
        base.reserveCapacity(128 + request.url.utf8.count + parameters.utf8.count)
        for component in components {
            base.append(UInt8(ascii: "\""))
            base += component.utf8
            base += "\": ".utf8
            try append(component, method: request.method, target: target, headers: request.headers, digest: digest, to: &base)
            base.append(UInt8(ascii: "\n"))
        }
        base += "\"@signature-params\": ".utf8
        base += parameters.utf8
        let signature = try SigningKeys.shared.sign(base, settings: settings)
        added.append(("Signature-Input", "sig1=" + parameters))
        added.append(("Signature", "sig1=:" + Base64.encode(signature) + ":"))
        return added
    }

    /// The request's URL taken apart once for the derived components (RFC 9421 §2.2).
    private struct Target {
        /// The target URI: the URL without its fragment.
        let url: String
        let scheme: String
        let authority: String
        /// Path and query: `@request-target`.
        let pathAndQuery: String

        /// Scanned as UTF-8 with the standard library alone: Foundation's `range(of:)` bridged the
        /// URL to an NSString on every request, a third of what signing cost.
        init(_ target: URLTarget) {
            let full = target.url.utf8
            let url = full.firstIndex(of: UInt8(ascii: "#")).map { String(target.url[..<$0]) } ?? target.url
            self.url = url
            scheme = target.scheme
            let bytes = url.utf8
            // A loop, not `firstRange(of:)`: its generic search took HMAC signing from 8.4 to 10.5 µs.
            var afterScheme = bytes.startIndex
            var index = bytes.startIndex
            while index < bytes.endIndex {
                if bytes[index] == UInt8(ascii: ":"), bytes[index...].starts(with: "://".utf8) {
                    afterScheme = bytes.index(index, offsetBy: 3)
                    break
                }
                index = bytes.index(after: index)
            }
            pathAndQuery = bytes[afterScheme...].firstIndex(of: UInt8(ascii: "/")).map { String(url[$0...]) } ?? "/"
            let host = target.host.utf8.contains(UInt8(ascii: ":")) ? "[\(target.host)]" : target.host
            authority = target.port == (target.scheme == "https" ? 443 : 80) ? host : "\(host):\(target.port)"
        }

        var path: String { pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/" }
        var query: String { pathAndQuery.firstIndex(of: "?").map { String(pathAndQuery[$0...]) } ?? "?" }
    }

    /// A component's value in the signature base (RFC 9421 §2.1, §2.2), appended to `base`. A
    /// header's is its fields' values, trimmed and joined with ", "; `Content-Digest` counts as the
    /// request's last field when there is a body.
    private func append(_ component: String, method: String, target: Target, headers: [(name: String, value: String)],
                        digest: String?, to base: inout [UInt8]) throws(BridgeError) {
        switch component {
        case "@method": base += method.uppercased().utf8
        case "@target-uri": base += target.url.utf8
        case "@authority": base += target.authority.utf8
        case "@scheme": base += target.scheme.utf8
        case "@path": base += target.path.utf8
        case "@query": base += target.query.utf8
        case "@request-target": base += target.pathAndQuery.utf8
        default:
            var found = false
            func add(_ value: String) {
                if found { base += ", ".utf8 }
                found = true
                base += value.trimmingCharacters(in: " \t").utf8
            }
            // Component names are lower case (app.json's are lowered when read).
            for header in headers where header.name.lowercased() == component { add(header.value) }
            if component == "content-digest", let digest { add(digest) }
            guard found else {
                throw BridgeError.badParams("/headers", "signer \"\(name)\" signs the header \(component), which this request does not have")
            }
        }
    }
}

/// The signers' keys, read from their files once per process and kept in native memory.
final class SigningKeys: Sendable {
    static let shared = SigningKeys()

    private enum Key: Sendable {
        // The keys' bytes: swift-crypto's key types are not Sendable, and making one is cheap.
        case hmac([UInt8])
        /// The 32-byte seed.
        case ed25519([UInt8])
    }

    private let keys = Mutex<[String: Key]>([:])

    func sign(_ base: [UInt8], settings: AppNetworkSettings.SignerSettings) throws(BridgeError) -> [UInt8] {
        switch try key(settings) {
        case .hmac(let key):
            return Array(HMAC<SHA256>.authenticationCode(for: base, using: SymmetricKey(data: key)))
        case .ed25519(let key):
            do { return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: key).signature(for: base)) } catch {
                throw BridgeError.failed(reason: "signing", "signing with \(settings.keyFile) failed: \(error)")
            }
        }
    }

    private func key(_ settings: AppNetworkSettings.SignerSettings) throws(BridgeError) -> Key {
        let cacheKey = settings.algorithm.rawValue + "\n" + settings.keyFile
        if let key = keys.withLock({ $0[cacheKey] }) { return key }
        let bytes: [UInt8]
        do { bytes = try FileSystem.bytes(atPath: settings.keyFile) } catch {
            throw BridgeError.failed(reason: "signing", "cannot read the signer's key \(settings.keyFile): \(error)")
        }
        let key: Key
        switch settings.algorithm {
        case .hmacSHA256:
            guard bytes.count >= 32 else {
                throw BridgeError.failed(reason: "signing", "the HMAC key \(settings.keyFile) has \(bytes.count) bytes; expected at least 32 (SHA-256's size)")
            }
            key = .hmac(bytes)
        case .ed25519:
            key = .ed25519(try Self.ed25519Seed(pem: bytes, file: settings.keyFile))
        }
        keys.withLock { $0[cacheKey] = key }
        return key
    }

    /// An Ed25519 private key's seed from PKCS#8 PEM: its DER is a fixed 16-byte prefix and the seed.
    private static func ed25519Seed(pem: [UInt8], file: String) throws(BridgeError) -> [UInt8] {
        let text = String(decoding: pem, as: UTF8.self)
        let prefix: [UInt8] = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
        guard let start = text.range(of: "-----BEGIN PRIVATE KEY-----"), let end = text.range(of: "-----END PRIVATE KEY-----"),
              let der = Base64.decode(text[start.upperBound..<end.lowerBound].filter { !$0.isWhitespace }.description),
              der.count == 48, Array(der.prefix(16)) == prefix,
              (try? Curve25519.Signing.PrivateKey(rawRepresentation: der.suffix(32))) != nil else {
            throw BridgeError.failed(reason: "signing", "\(file) is not an Ed25519 private key in PKCS#8 PEM (-----BEGIN PRIVATE KEY-----, as openssl genpkey -algorithm ed25519 writes)")
        }
        return Array(der.suffix(32))
    }
}
