import Foundation
import NIOSSL
import PostgresNIO

/// How a connection to PostgreSQL uses TLS, as libpq's `sslmode` and `sslrootcert` say, so that
/// a `--db` URL copied from a managed database's console means here what it means to `psql`.
///
/// ```swift
/// let tls = try PostgresTLS(mode: "verify-full", rootCertificate: "/etc/ssl/db-ca.pem")
/// ```
///
/// | `sslmode` | encrypted | the server's certificate checked |
/// | --- | --- | --- |
/// | `disable` | never | — |
/// | `allow`, `prefer` (the default) | when the server offers TLS | no |
/// | `require` | always | no; but as `verify-ca` when a root certificate file is given or exists |
/// | `verify-ca` | always | signed by a CA in `sslrootcert` |
/// | `verify-full` | always | signed by such a CA, and names the URL's host (a DNS name, or an IP address in its subjectAltName) |
///
/// libpq's `allow` tries without TLS first; PostgresNIO cannot, so it tries TLS first, as
/// `prefer` does: never less private than what was asked. `sslrootcert` is a PEM file of the CAs to
/// trust, or `system` for the machine's trust store; without it, `~/.postgresql/root.crt` (libpq's
/// default), which `verify-ca` and `verify-full` then need.
public struct PostgresTLS: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var mode: Mode
    /// `sslrootcert` as given: a PEM file's path, `system`, or nil for libpq's default file.
    public var rootCertificate: String?

    public static let disabled = PostgresTLS(mode: .disable, rootCertificate: nil)

    public init(mode: Mode, rootCertificate: String?) {
        self.mode = mode
        self.rootCertificate = rootCertificate
    }

    /// `mode` as libpq spells it; throws naming `sslmode` and the six it accepts.
    public init(mode text: String, rootCertificate: String?) throws {
        guard let mode = Mode(rawValue: text) else {
            let modes = Mode.allCases.map(\.rawValue)
            throw PostgresStoreError(.badAddress, "sslmode: expected \(modes.dropLast().joined(separator: ", ")) or \(modes.last!), got \(text)")
        }
        guard rootCertificate?.isEmpty != true else {
            throw PostgresStoreError(.badAddress, "sslrootcert: expected the path of a PEM file of CA certificates, or system, got an empty value")
        }
        self.init(mode: mode, rootCertificate: rootCertificate)
    }

    /// libpq's default root certificate file, `~/.postgresql/root.crt`.
    static var defaultRootCertificate: String {
        (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.postgresql/root.crt"
    }

    /// Which certificates are trusted, in words, for messages.
    var rootsDescription: String {
        switch rootCertificate {
        case "system"?: "the system's trust store (sslrootcert=system)"
        case let path?: "sslrootcert \(path)"
        case nil: "\(Self.defaultRootCertificate) (sslrootcert's default)"
        }
    }

    /// NIOSSL's configuration for this mode, nil for `disable`. The CA file is read here, so that
    /// a missing or unreadable one is named before any connection is tried.
    func clientConfiguration() throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return nil
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return configuration
        case .require:
            // libpq: "if a root CA file exists, the behavior of sslmode=require is the same as verify-ca".
            guard rootCertificate != nil || FileManager.default.fileExists(atPath: Self.defaultRootCertificate) else {
                configuration.certificateVerification = .none
                return configuration
            }
            configuration.certificateVerification = .noHostnameVerification
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        configuration.trustRoots = try trustRoots()
        return configuration
    }

    private func trustRoots() throws -> NIOSSLTrustRoots {
        if rootCertificate == "system" { return .default }
        let path = rootCertificate ?? Self.defaultRootCertificate
        guard FileManager.default.fileExists(atPath: path) else {
            let given = rootCertificate == nil ? "\(path) (sslrootcert's default) does not exist" : "\(path) does not exist"
            throw PostgresStoreError(.unavailable, """
                sslrootcert: \(given); sslmode=\(mode.rawValue) checks the server's certificate against it. Give the CA's PEM file \
                as sslrootcert=FILE, use the system's trust store with sslrootcert=system, or choose sslmode=require
                """)
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw PostgresStoreError(.unavailable, "sslrootcert: cannot read \(path) as PEM CA certificates: \(error)")
        }
        guard !certificates.isEmpty else {
            throw PostgresStoreError(.unavailable, "sslrootcert: expected PEM CA certificates in \(path), found none")
        }
        return .certificates(certificates)
    }

    /// The pool's TLS setting.
    public func forClient() throws -> PostgresClient.Configuration.TLS {
        guard let configuration = try clientConfiguration() else { return .disable }
        switch mode {
        case .allow, .prefer: return .prefer(configuration)
        default: return .require(configuration)
        }
    }

    /// A single connection's TLS setting.
    public func forConnection() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = try clientConfiguration() else { return .disable }
        let context = try NIOSSLContext(configuration: configuration)
        switch mode {
        case .allow, .prefer: return .prefer(context)
        default: return .require(context)
        }
    }

    /// What went wrong with TLS in a failed connection to `host`, in words an operator can act
    /// on; nil when the failure was not TLS's.
    public func explain(_ error: any Error, host: String) -> String? {
        if let error = error as? PSQLError {
            if error.code == .sslUnsupported {
                return "the server does not accept TLS connections, and sslmode=\(mode.rawValue) requires one (sslmode=prefer or disable connects without)"
            }
            return error.underlying.flatMap { explain($0, host: host) }
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate does not name \(host) (sslmode=verify-full checks the host; verify-ca does not)"
        }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not signed by a CA in \(rootsDescription) (sslmode=\(mode.rawValue)): \(text)"
        }
        if error is NIOSSLError || error is BoringSSLError {
            return "TLS failed (sslmode=\(mode.rawValue)): \(text)"
        }
        return nil
    }
}
