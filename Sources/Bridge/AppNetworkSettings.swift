import JSON
#if canImport(Glibc)
import Glibc
#endif

/// What `app.json`'s `network` section says about how the app's requests run (each field
/// optional). The `transfers` and `transfersQueued` quotas bound the app's requests as a whole;
/// this section bounds them per host, as browsers do: past `connectionsPerHost` requests running to
/// one host (scheme, host and port), the next ones to it wait in order while other hosts' go on.
public struct AppNetworkSettings: Sendable, Equatable {
    /// Requests running at once to one host; a browser's limit for HTTP/1.1 by default.
    public var connectionsPerHost: Int
    /// Request signers by name (`"signers": {"api": {...}}`): a request with `sign: "api"` carries
    /// HTTP Message Signatures made with that signer's key, which JS never sees.
    public var signers: [String: SignerSettings] = [:]
    /// What differs for particular hosts (`"hosts": {"api.example.com": {...}}`), by the host as
    /// written, lower-cased: pinned public keys, the CAs that verify it, its addresses.
    public var hosts: [String: HostSettings] = [:]

    public static let defaults = AppNetworkSettings()

    public init(connectionsPerHost: Int = 6) {
        self.connectionsPerHost = connectionsPerHost
    }

    /// One `hosts` entry.
    public struct HostSettings: Sendable, Equatable {
        /// curl's `sha256//BASE64` pins of the server's public key (its SubjectPublicKeyInfo's SHA-256).
        public var pins: [String] = []
        /// A PEM file of the CAs that verify this host, instead of the system's (absolute).
        public var caFile: String?
        /// IP addresses to connect to instead of asking DNS, tried fastest first.
        public var addresses: [String] = []
    }

    /// One `signers` entry: how to sign, with what key, over which parts of the request.
    public struct SignerSettings: Sendable, Equatable {
        public enum Algorithm: String, Sendable, CaseIterable {
            case hmacSHA256 = "hmac-sha256"
            case ed25519
        }

        public var algorithm: Algorithm
        /// The key's file, absolute (app.json writes it relative to its folder): HMAC's key as
        /// the file's bytes, Ed25519's as a PKCS#8 PEM ("PRIVATE KEY", as `openssl genpkey
        /// -algorithm ed25519` writes).
        public var keyFile: String
        /// The `keyid` the signature names; the signer's name unless given.
        public var keyId: String
        /// What is signed, in order: derived components (`@method`, `@target-uri`, `@authority`,
        /// `@scheme`, `@path`, `@query`, `@request-target`) and header fields (lower-cased). By
        /// default `@method` and `@target-uri`; `content-digest` is added for a request with a body.
        public var components: [String]

        public static let derivedComponents: Set<String> = ["@method", "@target-uri", "@authority", "@scheme", "@path", "@query", "@request-target"]
    }

    /// The fields `app.json` may set, with the least and most each may be.
    nonisolated(unsafe) static let fields: [(name: String, minimum: Int, maximum: Int, keyPath: WritableKeyPath<AppNetworkSettings, Int>)] = [
        ("connectionsPerHost", 1, 1_000_000, \.connectionsPerHost),
    ]

    /// The defaults with what `value` (the `network` object of `app.json`) sets; `source` names it
    /// in errors ("app.json: network").
    /// `appDirectory`: the folder key files are named relative to.
    public static func parse(_ value: JSONValue?, source: String, appDirectory: String = ".") throws(QuotaError) -> AppNetworkSettings {
        var settings = AppNetworkSettings.defaults
        guard let value else { return settings }
        guard case .object(let object) = value else { throw QuotaError("\(source): expected an object, got \(value.typeName)") }
        for member in object.members {
            if member.key == "signers" {
                settings.signers = try parseSigners(member.value, source: "\(source).signers", appDirectory: appDirectory)
                continue
            }
            if member.key == "hosts" {
                settings.hosts = try parseHosts(member.value, source: "\(source).hosts", appDirectory: appDirectory)
                continue
            }
            guard let field = fields.first(where: { $0.name == member.key }) else {
                throw QuotaError("\(source).\(member.key): unknown setting; expected one of \((fields.map(\.name) + ["signers", "hosts"]).joined(separator: ", "))")
            }
            guard case .number(let number) = member.value, number.rounded() == number,
                  number >= Double(field.minimum), number <= Double(field.maximum) else {
                throw QuotaError("\(source).\(member.key): expected an integer from \(field.minimum) to \(field.maximum), got \(member.value)")
            }
            settings[keyPath: field.keyPath] = Int(number)
        }
        return settings
    }

    private static func parseSigners(_ value: JSONValue, source: String, appDirectory: String) throws(QuotaError) -> [String: SignerSettings] {
        guard case .object(let object) = value else { throw QuotaError("\(source): expected an object of signers by name, got \(value.typeName)") }
        var signers: [String: SignerSettings] = [:]
        for (name, entry) in object.members.map({ ($0.key, $0.value) }) {
            let at = "\(source).\(name)"
            guard case .object(let fields) = entry else { throw QuotaError("\(at): expected an object {algorithm, keyFile, components?, keyId?}, got \(entry.typeName)") }
            for key in fields.members.map(\.key) where !["algorithm", "keyFile", "components", "keyId"].contains(key) {
                throw QuotaError("\(at).\(key): unknown field; expected algorithm, keyFile, components or keyId")
            }
            guard let written = fields["algorithm"]?.stringValue, let algorithm = SignerSettings.Algorithm(rawValue: written) else {
                throw QuotaError("\(at).algorithm: expected one of \(SignerSettings.Algorithm.allCases.map(\.rawValue).joined(separator: ", ")), got \(fields["algorithm"].map { "\($0)" } ?? "nothing")")
            }
            guard let file = fields["keyFile"]?.stringValue, !file.isEmpty else {
                throw QuotaError("\(at).keyFile: expected the path of the key's file, relative to the app's folder")
            }
            let keyFile = file.hasPrefix("/") ? file : appDirectory + "/" + file
            guard access(keyFile, R_OK) == 0 else { throw QuotaError("\(at).keyFile: cannot read \(keyFile)") }
            var components = ["@method", "@target-uri"]
            if let list = fields["components"] {
                guard case .array(let items) = list, items.allSatisfy({ $0.stringValue?.isEmpty == false }) else {
                    throw QuotaError("\(at).components: expected an array of component names (@method, @target-uri, @authority, @scheme, @path, @query, @request-target or a header name), got \(list)")
                }
                components = items.compactMap { $0.stringValue?.lowercased() }
                for component in components where component.hasPrefix("@") && !SignerSettings.derivedComponents.contains(component) {
                    throw QuotaError("\(at).components: \(component) is not a derived component this host signs; expected one of \(SignerSettings.derivedComponents.sorted().joined(separator: ", ")) or a header name")
                }
            }
            let keyId = fields["keyId"]?.stringValue ?? name
            signers[name] = SignerSettings(algorithm: algorithm, keyFile: keyFile, keyId: keyId, components: components)
        }
        return signers
    }

    private static func parseHosts(_ value: JSONValue, source: String, appDirectory: String) throws(QuotaError) -> [String: HostSettings] {
        guard case .object(let object) = value else { throw QuotaError("\(source): expected an object of hosts by name, got \(value.typeName)") }
        var hosts: [String: HostSettings] = [:]
        for member in object.members {
            let at = "\(source).\(member.key)"
            guard case .object(let fields) = member.value else { throw QuotaError("\(at): expected an object {pins?, caFile?, addresses?}, got \(member.value.typeName)") }
            var host = HostSettings()
            for field in fields.members {
                switch field.key {
                case "pins":
                    host.pins = try strings(field.value, at: "\(at).pins")
                    for pin in host.pins where !isPin(pin) {
                        throw QuotaError("\(at).pins: \"\(pin)\" is not a pin; expected sha256// and the base64 of the SHA-256 of the server's public key (openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)")
                    }
                case "caFile":
                    guard let file = field.value.stringValue, !file.isEmpty else { throw QuotaError("\(at).caFile: expected the path of a PEM file of CA certificates") }
                    let path = file.hasPrefix("/") ? file : appDirectory + "/" + file
                    guard access(path, R_OK) == 0 else { throw QuotaError("\(at).caFile: cannot read \(path)") }
                    host.caFile = path
                case "addresses":
                    host.addresses = try strings(field.value, at: "\(at).addresses")
                    for address in host.addresses where !isIPAddress(address) {
                        throw QuotaError("\(at).addresses: \"\(address)\" is not an IPv4 or IPv6 address")
                    }
                default:
                    throw QuotaError("\(at).\(field.key): unknown field; expected pins, caFile or addresses")
                }
            }
            hosts[member.key.lowercased()] = host
        }
        return hosts
    }

    private static func strings(_ value: JSONValue, at: String) throws(QuotaError) -> [String] {
        guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
            throw QuotaError("\(at): expected an array of strings, got \(value.typeName)")
        }
        return items.compactMap(\.stringValue)
    }

    private static func isPin(_ text: String) -> Bool {
        guard text.hasPrefix("sha256//") else { return false }
        let encoded = text.dropFirst(8)
        return encoded.count == 44 && encoded.hasSuffix("=") && encoded.dropLast().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
    }

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
