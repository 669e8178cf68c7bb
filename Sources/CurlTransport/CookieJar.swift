import CCurl

/// An app's cookies, kept as a browser keeps a profile's: curl's cookie engine (RFC 6265 domain
/// and path matching, expiry, `Secure`, `HttpOnly`, the public suffix list) shared by every
/// transfer that names this jar, and saved to a file in curl's cookie-file format (Netscape's)
/// whenever an answer set a cookie, so that the next run starts with them.
///
/// ```swift
/// let jar = CookieJar(path: dataDirectory + "/.cookies")
/// var request = TransferRequest(url: "https://api.example.com/login", method: "POST")
/// request.cookieJar = jar   // sends the jar's cookies for the URL, stores the Set-Cookie answers
/// ```
///
/// One per file in the process: two jars over one file would overwrite each other's saves.
// @unchecked: `share` is used only by transfers on the curl thread (CurlLoop runs every transfer there, so curl needs no share locks), and `loaded` is read and written only there (CurlTransfer.configure).
public final class CookieJar: @unchecked Sendable {
    /// The file the cookies are read from (at the first transfer) and saved to.
    public let path: String
    let share: UnsafeMutableRawPointer
    /// Whether a transfer has read the file into the share yet (curl thread only).
    private var loaded = false

    public init(path: String) {
        self.path = path
        share = hh_share_init()!
        hh_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
    }

    /// Configures `handle` to send and store this jar's cookies; the first transfer reads the file.
    func attach(to handle: UnsafeMutableRawPointer) {
        CurlLoop.shared.assertOnLoopThread()
        hh_easy_setopt_pointer(handle, CURLOPT_SHARE, share)
        // A missing file is an empty jar; "" turns the engine on without reading one.
        hh_easy_setopt_string(handle, CURLOPT_COOKIEFILE, loaded ? "" : path)
        loaded = true
    }

    /// Takes `handle` off the jar as its transfer ends, first writing the jar to its file when
    /// the transfer was `setCookie` (curl writes a temporary file and renames it into place).
    /// curl_easy_reset keeps a handle's share, so a handle going back to the spare pool must leave
    /// it, or the next transfer on it would send these cookies whatever its request says.
    func detach(from handle: UnsafeMutableRawPointer, setCookie: Bool) {
        CurlLoop.shared.assertOnLoopThread()
        if setCookie {
            hh_easy_setopt_string(handle, CURLOPT_COOKIEJAR, path)
            hh_easy_setopt_string(handle, CURLOPT_COOKIELIST, "FLUSH")
        }
        hh_easy_setopt_pointer(handle, CURLOPT_SHARE, nil)
    }
}
