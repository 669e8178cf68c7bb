import Engine
import Glibc
import HostTesting
import HybridHost
import SystemIO

/// `hybrid-bench startup`: wall time and peak RSS of `hybrid run hello.js` against `node -e 0`,
/// the two alternating in one run. Goal (issue 2): ours ≤ 0.6 × node's wall time, RSS ≤ node's.
/// Then the binary the Debian package installs (a copy stripped as `scripts/make-deb` strips it)
/// against the unstripped build, alternating: the same or better (issue 36).
public struct StartupBenchmark {
    let runs: Int

    public init(iterations: Int?) {
        runs = iterations ?? 30
    }

    public func run() {
        let directory = TemporaryFolder(prefix: "hybrid-bench").path
        defer { FileSystem.removeTree(directory) }
        let hello = directory + "/hello.js"
        try? FileSystem.write("console.log(\"hello\");\n", to: hello)
        let ours = [MeasuredProcess.builtHybrid, "run", hello, "--data-dir", directory + "/data"]
        let node = ["node", "-e", "0"]
        guard MeasuredProcess.measure(ours)?.status == 0 else {
            print("bench startup: \(ours.joined(separator: " ")) failed")
            return
        }
        let nodeWorks = MeasuredProcess.measure(node)?.status == 0
        var ourRuns: [MeasuredProcess.Measurement] = []
        var nodeRuns: [MeasuredProcess.Measurement] = []
        for _ in 0..<runs {
            if let m = MeasuredProcess.measure(ours) { ourRuns.append(m) }
            if nodeWorks, let m = MeasuredProcess.measure(node) { nodeRuns.append(m) }
        }
        print("bench startup: \(runs) runs each, alternating; median wall time, median peak RSS")
        let ourWall = median(ourRuns.map(\.wallMs))
        let ourRSS = median(ourRuns.map { Double($0.maxRSSKiB) })
        print(BenchmarkTable.row("hybrid run hello.js", ourWall, unit: "ms") + "   " + BenchmarkTable.format(ourRSS / 1024) + " MiB")
        guard nodeWorks else {
            print("node is not installed: no baseline")
            return
        }
        let nodeWall = median(nodeRuns.map(\.wallMs))
        let nodeRSS = median(nodeRuns.map { Double($0.maxRSSKiB) })
        print(BenchmarkTable.row("node -e 0", nodeWall, unit: "ms") + "   " + BenchmarkTable.format(nodeRSS / 1024) + " MiB")
        print("ratio wall: \(BenchmarkTable.format(ourWall / nodeWall))x   (goal <= 0.6x)")
        print("ratio RSS:  \(BenchmarkTable.format(ourRSS / nodeRSS))x   (goal <= 1x)")
        compareStripped(hello: hello, directory: directory)
    }

    /// The packaged binary, stripped, against the build it comes from.
    func compareStripped(hello: String, directory: String) {
        let stripped = directory + "/hybrid-stripped"
        let strip = try? ChildProcess.run("/usr/bin/strip", ["--strip-unneeded", "--remove-section=.comment", "--remove-section=.note",
                                                             "-o", stripped, MeasuredProcess.builtHybrid])
        guard strip?.status == 0 else {
            print("strip failed: no packaged-binary comparison")
            return
        }
        let packaged = [stripped, "run", hello, "--data-dir", directory + "/data"]
        let built = [MeasuredProcess.builtHybrid, "run", hello, "--data-dir", directory + "/data"]
        var packagedRuns: [MeasuredProcess.Measurement] = [], builtRuns: [MeasuredProcess.Measurement] = []
        for _ in 0..<runs {
            if let m = MeasuredProcess.measure(packaged) { packagedRuns.append(m) }
            if let m = MeasuredProcess.measure(built) { builtRuns.append(m) }
        }
        let sizes = [stripped, MeasuredProcess.builtHybrid].map { FileSystem.stamp($0)?.size ?? 0 }
        let (packagedWall, builtWall) = (median(packagedRuns.map(\.wallMs)), median(builtRuns.map(\.wallMs)))
        let (packagedRSS, builtRSS) = (median(packagedRuns.map { Double($0.maxRSSKiB) }), median(builtRuns.map { Double($0.maxRSSKiB) }))
        print("bench startup, the packaged binary: stripped \(sizes[0] / 1_048_576) MiB against the build's \(sizes[1] / 1_048_576) MiB, \(runs) runs each, alternating")
        print(BenchmarkTable.row("stripped (as installed)", packagedWall, unit: "ms") + "   " + BenchmarkTable.format(packagedRSS / 1024) + " MiB")
        print(BenchmarkTable.row("unstripped (the build)", builtWall, unit: "ms") + "   " + BenchmarkTable.format(builtRSS / 1024) + " MiB")
        print("ratio wall: \(BenchmarkTable.format(packagedWall / builtWall))x   ratio RSS: \(BenchmarkTable.format(packagedRSS / builtRSS))x   (goal <= 1x)")
    }

    func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

/// Spawns a program with output discarded and measures it with wait4's resource usage.
enum MeasuredProcess {
    struct Measurement {
        let wallMs: Double
        let maxRSSKiB: Int
        let status: Int32
    }

    /// The `hybrid` built beside this benchmark executable.
    static var builtHybrid: String { FileSystem.directory(of: ownExecutable) + "/hybrid" }

    static var ownExecutable: String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : "hybrid"
    }

    static func measure(_ arguments: [String]) -> Measurement? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = MonotonicClock.now()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
        // The child's own high-water mark, read from /proc while it runs. wait4's ru_maxrss is not
        // it once this process has grown: posix_spawn starts the child on this process's memory
        // (CLONE_VM), and exec folds that memory's high-water mark into the child's ru_maxrss. A
        // child that ends before the first reading falls back to ru_maxrss.
        var highWaterKiB = 0
        var exited = siginfo_t()
        while waitid(P_PID, id_t(pid), &exited, WEXITED | WNOHANG | WNOWAIT) == 0, exited._sifields._sigchld.si_pid == 0 {
            highWaterKiB = max(highWaterKiB, Self.highWaterKiB(of: pid))
            usleep(2_000)
        }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return nil }
        let wall = Double(MonotonicClock.now() - start) / 1_000_000
        return Measurement(wallMs: wall, maxRSSKiB: highWaterKiB > 0 ? highWaterKiB : usage.ru_maxrss, status: (status >> 8) & 0xFF)
    }

    /// `VmHWM` of a running process, in KiB; 0 once it has let go of its memory.
    static func highWaterKiB(of pid: pid_t) -> Int {
        guard let status = try? FileSystem.text(atPath: "/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}
