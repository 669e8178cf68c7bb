import Foundation
import ServiceLifecycle
import UnixSignals

/// Reads a ``ServerCertificate`` again each time the process gets SIGHUP, as nginx and HAProxy do
/// when certbot has renewed the files, and reports each outcome in a line: the new expiry, or why
/// the new pair was refused and the old one kept. A service of the server's `ServiceGroup`, added
/// only by a server that owns the process's signals (the command line's), never by a server in a
/// test process.
public struct CertificateReloadOnHangup: Service {
    let certificate: ServerCertificate
    let report: @Sendable (String) -> Void

    /// `report` gets one line per SIGHUP (the server's name first is the caller's to add).
    public init(certificate: ServerCertificate, report: @escaping @Sendable (String) -> Void) {
        self.certificate = certificate
        self.report = report
    }

    public func run() async throws {
        // The sequence ends only when the service shuts down gracefully.
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try certificate.reload()
                report("reloaded the TLS certificate \(certificate.certificateFile) (valid until \(Self.format(certificate.notValidAfter))); open connections keep theirs")
            } catch {
                report("kept the TLS certificate it had: \(error)")
            }
        }
    }

    static func format(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
