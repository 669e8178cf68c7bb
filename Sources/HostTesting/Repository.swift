/// Where this repository's files are, for tests that read its contracts, fixtures, scripts and
/// JS tests: found from this file's own path, so it holds wherever the checkout is.
public enum Repository {
    /// The checkout's root folder (the one with `Package.swift`), without a trailing slash.
    public static let root: String = {
        // <root>/Sources/HostTesting/Repository.swift
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// `relative` (such as `services/kv.json`) under the root.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
