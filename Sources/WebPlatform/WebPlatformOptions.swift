import Engine

/// What the web platform's globals take from the run that installs them.
///
/// ```swift
/// let web = WebPlatform(options: WebPlatformOptions(hostVersion: "0.1.0",
///     localStorage: WebStorageLocation(stores: stores, directory: dataDir), storageQuotaBytes: kvBytes))
/// ```
public struct WebPlatformOptions: Sendable {
    /// The host's name and version, first in `navigator.userAgent` (`HybridHost/0.1.0 ...`).
    public var hostName: String
    public var hostVersion: String
    /// Where `localStorage` keeps its items. Nil: nowhere, and its first use throws a
    /// `SecurityError`, as a browser's does when storage is turned off.
    public var localStorage: WebStorageLocation?
    /// What each of `localStorage` and `sessionStorage` may hold, counted as Web Storage counts it
    /// (the UTF-16 code units of keys and values), and the cap of the kv file `localStorage` writes,
    /// which the `kv` service caps the same: an app's `quotas.kvBytes`.
    public var storageQuotaBytes: Int

    /// `navigator.userAgent`, which `fetch` sends too: "HybridHost/0.1.0 JavaScriptCore/2.50.6 (Linux x86_64)".
    public var userAgent: String {
        "\(hostName)/\(hostVersion) JavaScriptCore/\(JSEngine.webKitVersion) (\(NavigatorInfo.platform))"
    }

    public init(hostName: String = "HybridHost", hostVersion: String = "0", localStorage: WebStorageLocation? = nil,
                storageQuotaBytes: Int = 5 << 20) {
        self.hostName = hostName
        self.hostVersion = hostVersion
        self.localStorage = localStorage
        self.storageQuotaBytes = storageQuotaBytes
    }
}
