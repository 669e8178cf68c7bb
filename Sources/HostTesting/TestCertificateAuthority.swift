import SystemIO

/// A throwaway certificate authority in a folder, and the server certificates it signs, made by
/// the `openssl` command (Debian's; `scripts/install-deps` brings it): what a TLS test trusts, or
/// refuses to. Keys are P-256, certificates last 30 days.
///
/// ```swift
/// let authority = try TestCertificateAuthority(in: folder.path, name: "first")
/// let server = try authority.issue(name: "server", hosts: ["localhost", "127.0.0.1"])
/// // serve with server.certificate and server.key; trust authority.certificate
/// ```
public struct TestCertificateAuthority: Sendable {
    /// A certificate and its private key, as PEM files.
    public struct Issued: Sendable {
        public let certificate: String
        public let key: String
    }

    public static let openssl = "/usr/bin/openssl"

    /// The CA's own certificate (PEM): what a client trusts.
    public let certificate: String
    let key: String
    let folder: String

    /// Makes a new CA, its files named `NAME-ca.pem` and `NAME-ca.key` in `folder`.
    public init(in folder: String, name: String) throws {
        self.folder = folder
        certificate = "\(folder)/\(name)-ca.pem"
        key = "\(folder)/\(name)-ca.key"
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", key, "-out", certificate, "-days", "30", "-subj", "/CN=hybrid test CA \(name)",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    /// A server certificate signed by this CA for `hosts` (DNS names, or IP addresses), in
    /// `NAME.pem` and `NAME.key`.
    public func issue(name: String, hosts: [String]) throws -> Issued {
        let issued = Issued(certificate: "\(folder)/\(name).pem", key: "\(folder)/\(name).key")
        let request = "\(folder)/\(name).csr", extensions = "\(folder)/\(name).ext"
        let names = hosts.map { host in host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? "IP:\(host)" : "DNS:\(host)" }
        try FileSystem.write("subjectAltName=\(names.joined(separator: ","))\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
                             to: extensions)
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", issued.key,
                          "-out", request, "-subj", "/CN=\(hosts.first ?? name)"])
        try Self.openssl(["x509", "-req", "-in", request, "-CA", certificate, "-CAkey", key, "-CAcreateserial", "-days", "30",
                          "-extfile", extensions, "-out", issued.certificate])
        return issued
    }

    static func openssl(_ arguments: [String]) throws {
        let result = try ChildProcess.run(openssl, arguments)
        guard result.status == 0 else {
            throw TestCertificateError(message: "openssl \(arguments.prefix(2).joined(separator: " ")) exited with \(result.status): "
                                       + String(decoding: result.errorOutput, as: UTF8.self))
        }
    }
}

/// Why a test certificate could not be made.
public struct TestCertificateError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
