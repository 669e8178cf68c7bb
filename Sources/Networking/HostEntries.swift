/// The entries at the top of an app's data folder that the host keeps for itself, which no
/// download may write into. A download may go anywhere else in the data folder: the folder is
/// the app's scope and these entries are carved out of it, the shape of a Tauri fs scope with
/// `deny` entries inside an allowed folder. The host layer, which lays the data folder out,
/// names them (`DataFolderLayout` in HybridHost); this module only knows its own (hidden
/// entries: the HTTP cache, downloads in progress).
///
/// ```swift
/// let entries = HostEntries(names: ["patch-ledger": "the patch ledger"], suffixes: [".sqlite": "a storage database"])
/// entries.owner(of: "Patch-Ledger")   // "the patch ledger"
/// entries.owner(of: "media")          // nil: the app's
/// ```
///
/// Names compare as a case-insensitive file system would compare them (a data folder may be on
/// one): Unicode case folded, canonically equivalent, trailing dots and spaces ignored. An alias
/// this cannot see (a short 8.3 name, a bind mount) is caught by `DownloadTarget`, which compares
/// the entries a path reaches with these by identity.
public struct HostEntries: Sendable {
    /// What each entry is, by its folded name: "patch-ledger": "the patch ledger".
    public private(set) var names: [String: String] = [:]
    /// What a name ending so is, by folded ending: ".sqlite": "a storage database".
    public private(set) var suffixes: [String: String] = [:]
    /// What a name starting with a dot is; nil when such names are the app's.
    public var hidden: String?

    public init(names: [String: String] = [:], suffixes: [String: String] = [:], hidden: String? = nil) {
        for (name, what) in names { self.names[Self.folded(name)] = what }
        for (suffix, what) in suffixes { self.suffixes[Self.folded(suffix)] = what }
        self.hidden = hidden
    }

    /// The network service's own: the HTTP cache (`.http-cache`), the offline queue
    /// (`.network-queue.sqlite`) and downloads in progress.
    public static let hiddenOnly = HostEntries(hidden: "a hidden entry, which the host keeps for itself")

    /// What the host keeps at `name`, an entry at the top of the data folder; nil: it is the app's.
    public func owner(of name: some StringProtocol) -> String? {
        let key = Self.folded(name)
        if let what = names[key] { return what }
        if key.hasPrefix("."), let hidden { return hidden }
        return suffixes.first { key.hasSuffix($0.key) }?.value
    }

    /// The entries for a message: `patch-ledger, patches, *.sqlite, names starting with a dot`.
    var summary: String {
        var parts = names.keys.sorted() + suffixes.keys.sorted().map { "*" + $0 }
        if hidden != nil { parts.append("names starting with a dot") }
        return parts.joined(separator: ", ")
    }

    /// `name` as a case-insensitive file system sees it: without trailing dots and spaces (FAT and
    /// NTFS drop them), case folded through upper case (so `ſ` is `s` and the Kelvin sign `k`).
    /// Swift compares and hashes strings by canonical equivalence, as such a file system
    /// normalises names.
    static func folded(_ name: some StringProtocol) -> String {
        var trimmed = Substring(name)
        while trimmed.count > 1, let last = trimmed.last, last == "." || last == " " { trimmed = trimmed.dropLast() }
        return trimmed.uppercased().lowercased()
    }
}
