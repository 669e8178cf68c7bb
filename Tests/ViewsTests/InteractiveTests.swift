import Foundation
import HostTesting
import SystemIO
import Testing

/// Drives `hybrid run js/apps/tasks-view` in a real terminal (tmux): keys in with send-keys, the
/// screen out with capture-pane. Needs tmux and the `hybrid` binary built next to the tests.
enum Tmux {
    static let root = URL(fileURLWithPath: Repository.root)
    static var hybrid: String? { BuiltHybrid.path }
    /// Opt-in (`VIEWS_TMUX=1`); `Tests/ViewsTests/tmux-interactive.sh` runs the same checks from a
    /// shell in `make test`. They used to hang under `swift test`: Foundation's `Process` never saw
    /// the tmux client end, because the tmux server had inherited the socket it watches. Started
    /// through SpawnedProcess they finish.
    static var available: Bool {
        ProcessInfo.processInfo.environment["VIEWS_TMUX"] == "1" && hybrid != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }

    /// Runs tmux; with `output`, returns what it printed. (Only capture-pane asks: the server that
    /// new-session starts would inherit a pipe and keep it open forever.)
    @discardableResult
    static func run(_ arguments: [String], output: Bool = false) throws -> String {
        let process = try SpawnedProcess("/usr/bin/tmux", arguments, output: output ? .pipe : .null, error: .null)
        let data = process.readOutput()
        process.waitForExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A tmux server of our own, with one 80×24 window running `command` in a shell, which then
    /// prints EXIT=status, the stty check, and TTY-CHECKED once that check is on the screen.
    struct Session {
        let socket = "hybrid-views-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        init(_ command: String) throws {
            try Tmux.run(["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "-c", Tmux.root.path,
                          "trap true INT; env TERM=xterm-256color LANG=C.UTF-8 " + command + "; echo EXIT=$?; stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon'; echo TTY-CHECKED; sleep 30"])
        }

        func keys(_ keys: String...) throws { try Tmux.run(["-L", socket, "send-keys", "-t", "0"] + keys) }
        func screen() throws -> String { try Tmux.run(["-L", socket, "capture-pane", "-p", "-t", "0"], output: true) }
        func close() { _ = try? Tmux.run(["-L", socket, "kill-server"]) }

        /// Waits until the screen contains `text` (up to 10 s); returns the screen.
        @discardableResult
        func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            var last = ""
            for _ in 0..<200 {
                last = try screen()
                if last.contains(text) { return last }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("the screen never showed \"\(text)\":\n\(last)", sourceLocation: sourceLocation)
            return last
        }
    }
}

@Suite("interactive terminal (tmux)", .enabled(if: Tmux.available, "opt-in (VIEWS_TMUX=1, tmux, the hybrid binary): make test runs the same checks through Tests/ViewsTests/tmux-interactive.sh"), .serialized)
struct InteractiveTests {
    @Test("Tab moves focus, Enter presses, q quits, and the terminal is restored")
    func tasksApp() async throws {
        let session = try Tmux.Session("\(Tmux.hybrid!) run js/apps/tasks-view --data-dir /tmp/hybrid-views-tmux")
        defer { session.close() }
        var screen = try await session.waitFor("1/3 done")
        #expect(screen.contains("[   ] Buy milk"))
        try session.keys("Enter")                       // focus starts on the first task
        screen = try await session.waitFor("2/3 done")
        #expect(screen.contains("[ x ] Buy milk"))
        try session.keys("Tab", "Tab", "Tab", "Enter")  // three tasks, then Add
        screen = try await session.waitFor("New task 4")
        #expect(screen.contains("2/4 done"))
        try session.keys("BTab", "BTab", "Space")      // back to task 3 ("Call mum"), untick it
        try await session.waitFor("1/4 done")
        try session.keys("q")
        screen = try await session.waitFor("TTY-CHECKED")  // EXIT= alone comes before the stty check
        #expect(screen.contains("tasks-view: quit; 1 of 4 tasks done"))
        #expect(screen.contains("EXIT=0"))
        #expect(screen.contains("\nicanon"), "canonical input restored")
    }

    @Test("keys scroll a list of 10,000 items, and Tab enters it at its first visible item")
    func longList() async throws {
        let session = try Tmux.Session("\(Tmux.hybrid!) run js/apps/long-list")
        defer { session.close() }
        var screen = try await session.waitFor("[ #15 ]")
        #expect(!screen.contains("[ #16 ]"))
        for (key, shown) in [("Down", "[ #16 ]"), ("PageDown", "[ #31 ]"), ("End", "[ #10000 ]"), ("Home", "[ #1 ]")] {
            try session.keys(key)
            try await session.waitFor(shown)
        }
        try session.keys("PageDown", "PageDown")
        screen = try await session.waitFor("[ #45 ]")
        #expect(!screen.contains("[ #30 ]"))
        try session.keys("Tab", "Enter")
        try await session.waitFor("opened order 31")
        try session.keys("q")
        screen = try await session.waitFor("TTY-CHECKED")
        #expect(screen.contains("long-list: quit; opened order 31"))
        #expect(screen.contains("\nicanon"), "canonical input restored")
    }

    @Test("SIGINT (Ctrl-C) ends the app and restores the terminal")
    func interrupt() async throws {
        let session = try Tmux.Session("\(Tmux.hybrid!) run js/apps/tasks-view --data-dir /tmp/hybrid-views-tmux")
        defer { session.close() }
        try await session.waitFor("1/3 done")
        try session.keys("C-c")
        let screen = try await session.waitFor("TTY-CHECKED")
        #expect(screen.contains("EXIT=130"))
        #expect(screen.contains("\nicanon"), "canonical input restored")
        #expect(!screen.contains("Buy milk"), "the alternate screen was left")
    }
}
