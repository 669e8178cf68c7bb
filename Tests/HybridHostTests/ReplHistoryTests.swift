import HostTesting
import HybridHost
import Testing

@Suite("REPL history")
struct ReplHistoryTests {
    @Test("blank lines and a repeat of the newest are not kept; past the limit the oldest go, in the file too")
    func keeps() throws {
        let folder = TemporaryFolder(prefix: "repl-history")
        defer { folder.remove() }
        let history = ReplHistory(path: folder.path + "/repl_history", limit: 3)
        for line in ["a", "  ", "b", "b", "c", "d"] { history.add(line) }
        #expect(history.entries == ["b", "c", "d"])
        #expect(ReplHistory(path: folder.path + "/repl_history", limit: 3).entries == ["b", "c", "d"])
        #expect(ReplHistory(path: folder.path + "/repl_history", limit: 2).entries == ["c", "d"])
    }

    @Test("a history that cannot be written does not stop the REPL")
    func unwritable() {
        let history = ReplHistory(path: "/nonexistent/folder/repl_history")
        #expect(history.add("1 + 1"))
        #expect(history.entries == ["1 + 1"])
    }
}
