import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A child channel that speaks TLS with the ``ServerCertificate`` current when each connection is
/// accepted, then hands the connection to `base` (HTTP/1.1): HummingbirdTLS's `TLSChannel` fixes
/// its certificate when the server starts, and a renewed certificate must not need a restart that
/// drops every held pull.
///
/// ```swift
/// let certificate = try ServerCertificate(certificateFile: "cert.pem", keyFile: "key.pem")
/// let application = Application(router: router, server: .https(.init(), certificate: certificate))
/// ```
public struct CertificateChannel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base
    let certificate: ServerCertificate

    public init(_ base: Base, certificate: ServerCertificate) {
        self.base = base
        self.certificate = certificate
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: certificate.context))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    public func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension CertificateChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    public var responder: HTTPChannelHandler.Responder { base.responder }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 over TLS with `certificate`, which ``ServerCertificate/reload()`` may renew while
    /// the server runs.
    public static func https(_ configuration: HTTP1Channel.Configuration, certificate: ServerCertificate) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            CertificateChannel(HTTP1Channel(responder: responder, configuration: configuration), certificate: certificate)
        }
    }
}
