import CCurl
import JSON

/// Why a transfer produced no response. `reason` is stable and machine-readable (it becomes the
/// bridge's `details.reason`); `message` carries curl's own words.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case dns, connect, timeout, tls
        case tooManyRedirects = "too_many_redirects"
        case bodyTooLarge = "body_too_large"
        case cancelled
        case `protocol`
        /// The response could not be written where it was going (a download's file): the disk is
        /// full, the file system read-only, or another I/O error.
        case io
        case diskFull = "disk_full"
        case readOnly = "read_only"
        /// The URL's host is not one the caller may reach (checked at every redirect too).
        case denied
        /// Not an absolute http(s) URL.
        case badURL = "bad_url"
        /// A request header curl would send as something else (``TransferRequest/headerProblem(name:value:)``).
        case badHeader = "bad_header"
    }

    public var reason: Reason
    public var message: String
    /// curl's error number, when curl reported the failure.
    public var curlCode: Int?
    /// The URL being fetched when it failed.
    public var url: String?

    public init(_ reason: Reason, _ message: String, curlCode: Int? = nil, url: String? = nil) {
        self.reason = reason
        self.message = message
        self.curlCode = curlCode
        self.url = url
    }

    public var description: String { "\(reason.rawValue): \(message)" }

    /// What a caller reports beside the reason: curl's error number and the URL, where known.
    public var details: JSONObject {
        var details: JSONObject = [:]
        if let curlCode { details["curlCode"] = .number(Double(curlCode)) }
        if let url { details["url"] = .string(url) }
        return details
    }

    /// Sorts curl's result codes into the reasons callers act on.
    static func reason(for code: CURLcode) -> Reason {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .dns
        case CURLE_COULDNT_CONNECT: .connect
        case CURLE_OPERATION_TIMEDOUT: .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            .tls
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: .bodyTooLarge
        case CURLE_ABORTED_BY_CALLBACK: .cancelled
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .badURL
        default: .protocol
        }
    }
}
