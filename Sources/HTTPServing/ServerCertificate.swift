import Foundation
import NIOSSL
import SystemIO

/// The certificate chain and private key a server presents over HTTPS, read from two PEM files
/// and read again by ``reload()`` (on SIGHUP, say) when they are renewed: connections accepted
/// after a reload get the new certificate, and those already open, held pulls among them, keep the
/// one they were accepted with.
///
/// ```swift
/// let certificate = try ServerCertificate(certificateFile: "/etc/sync/cert.pem", keyFile: "/etc/sync/key.pem")
/// // ... the files are renewed ...
/// try certificate.reload()   // throws, keeping the old pair, when the new one is unusable
/// ```
public final class ServerCertificate: Sendable {
    /// The chain (the server's certificate first, then its intermediates), PEM.
    public let certificateFile: String
    /// The server certificate's private key, PEM.
    public let keyFile: String
    private let loaded: Locked<Loaded>

    struct Loaded: Sendable {
        let context: NIOSSLContext
        let notValidAfter: Date
    }

    public init(certificateFile: String, keyFile: String) throws(ServerCertificateError) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        loaded = Locked(try Self.load(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// Reads both files again; the new pair serves the connections accepted from now on. Throws,
    /// and keeps serving the pair it had, when they cannot be read or do not match.
    public func reload() throws(ServerCertificateError) {
        let fresh = try Self.load(certificateFile: certificateFile, keyFile: keyFile)
        loaded.value = fresh
    }

    /// What a new connection's TLS handler is made with.
    var context: NIOSSLContext { loaded.read { $0.context } }

    /// When the certificate now served expires: for the line a server prints when it starts or
    /// reloads.
    public var notValidAfter: Date { loaded.read { $0.notValidAfter } }

    private static func load(certificateFile: String, keyFile: String) throws(ServerCertificateError) -> Loaded {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw ServerCertificateError(.certificate, file: certificateFile, "cannot read it as a PEM certificate chain (\(error))")
        }
        guard let leaf = chain.first else {
            throw ServerCertificateError(.certificate, file: certificateFile, "expected a PEM certificate chain, found no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw ServerCertificateError(.key, file: keyFile, "cannot read it as a PEM private key (\(error))")
        }
        let context: NIOSSLContext
        do {
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                         privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ServerCertificateError(.key, file: keyFile, "is not the private key of the certificate in \(certificateFile) (\(error))")
        }
        return Loaded(context: context, notValidAfter: Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter)))
    }
}

/// Why a certificate or key file could not serve: which of the two, the file, and what was wrong.
public struct ServerCertificateError: Error, Sendable, CustomStringConvertible {
    public enum Part: Sendable { case certificate, key }

    public let part: Part
    public let file: String
    public let reason: String

    init(_ part: Part, file: String, _ reason: String) {
        self.part = part
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(part == .certificate ? "the TLS certificate" : "the TLS private key") \(file): \(reason)" }
}
