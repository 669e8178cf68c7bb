import HybridHost
import Networking
import Testing

/// Which names at the top of the data folder are the host's.
@Suite("HostEntries: the host's names, compared as a case-insensitive file system compares them")
struct HostEntriesTests {
    static let entries = DataFolderLayout.hostEntries

    @Test("names the host keeps, in any case, with trailing dots and spaces, and by Unicode case folding",
          arguments: ["patch-ledger", "Patch-Ledger", "PATCH-LEDGER", "patch-ledger.", "patch-ledger ", "patch-ledger. .",
                      "patches", "patche\u{17F}", "PATCHES", ".kv.sqlite", ".anything", "x.sqlite", "X.SQLITE-WAL", "x.sqlite-shm",
                      "x.sqlite-journal", "x.sqlite.", "device-id", "DEVICE-ID", "repl_history"])
    func hosts(name: String) {
        #expect(Self.entries.owner(of: name) != nil)
    }

    @Test("names that are the app's", arguments: ["media", "ledger.json", "patch", "patch-ledgers", "patches2", "x.sqlite3", "sqlite",
                                                  "x.sqlite.bak", "device-id.txt", "a.b"])
    func apps(name: String) {
        #expect(Self.entries.owner(of: name) == nil)
    }
}
