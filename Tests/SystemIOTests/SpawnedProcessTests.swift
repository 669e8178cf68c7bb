import Glibc
import SystemIO
import Testing

@Suite("SpawnedProcess: children that keep only what they are given, reaped on their own pid")
struct SpawnedProcessTests {
    @Test("a child keeps descriptors 0, 1 and 2 only, even one this process left inheritable")
    func closesInheritedDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // not close-on-exec: a plain posix_spawn would hand both to the child
        defer { for fd in ends { close(fd) } }
        let child = try SpawnedProcess("/bin/sleep", ["30"], output: .null, error: .null)
        defer { child.signal(SIGKILL); child.waitForExit() }
        // sleep may hold a file of its own for a moment as it starts (its locale); an inherited
        // pipe would stay for good.
        var open = try descriptors(of: child.pid)
        for _ in 0..<500 where open != [0, 1, 2] {
            usleep(10_000)
            open = try descriptors(of: child.pid)
        }
        #expect(open == [0, 1, 2], "the child holds \(open)")
    }

    @Test("a child's pipe reaches its end while a long-lived child started after it still runs")
    func pipeEndsDespiteLaterChild() throws {
        let first = try SpawnedProcess("/bin/sh", ["-c", "sleep 0.2; echo done"], output: .pipe)
        let lingering = try SpawnedProcess("/bin/sleep", ["30"])
        defer { lingering.signal(SIGKILL); lingering.waitForExit() }
        #expect(String(decoding: first.readOutput(), as: UTF8.self) == "done\n")
        #expect(first.waitForExit() == 0)
        #expect(lingering.isRunning)
    }

    @Test("exit statuses: the child's own, and 128 + the signal that ended it")
    func exitStatuses() async throws {
        #expect(try SpawnedProcess("/bin/sh", ["-c", "exit 3"]).waitForExit() == 3)
        let sleeper = try SpawnedProcess("/bin/sleep", ["30"])
        #expect(sleeper.isRunning)
        sleeper.signal(SIGKILL)
        #expect(await sleeper.exit() == 128 + SIGKILL)
        #expect(sleeper.exitStatus == 128 + SIGKILL)
        sleeper.signal(SIGKILL)  // after the end: sent to no one
        #expect(await sleeper.exit() == 128 + SIGKILL)
    }

    @Test("a child starts with no signal blocked, whatever the spawning thread blocks")
    func unblockedSignals() throws {
        var terminate = sigset_t(), previous = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &terminate, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = try SpawnedProcess("/bin/sleep", ["30"])
        child.signal(SIGTERM)
        #expect(child.waitForExit() == 128 + SIGTERM)
    }

    @Test("environment is added to this process's own; directory is the child's working directory")
    func environmentAndDirectory() throws {
        let child = try SpawnedProcess("sh", ["-c", "echo \"$SPAWN_TEST_VALUE $PATH_SEEN\"; pwd"],
                                       environment: ["SPAWN_TEST_VALUE": "given", "PATH_SEEN": ProcessEnvironment["PATH"] == nil ? "no" : "yes"],
                                       directory: "/tmp", output: .pipe)
        let said = String(decoding: child.readOutput(), as: UTF8.self)
        #expect(said == "given yes\n/tmp\n")
        #expect(child.waitForExit() == 0)
    }

    @Test("input through a pipe, standard error merged into standard output, and files for both")
    func streams() async throws {
        let cat = try SpawnedProcess("/bin/cat", [], input: .pipe, output: .pipe)
        let text = Array(String(repeating: "0123456789abcdef", count: 8192).utf8)  // past a pipe's 64 KiB
        let reader = Task.detached { cat.readOutput() }
        cat.writeInput(text)
        #expect(await reader.value == text)
        #expect(cat.waitForExit() == 0)

        let merged = try SpawnedProcess("/bin/sh", ["-c", "echo out; echo err >&2"], output: .pipe, error: .sameAsOutput)
        #expect(String(decoding: merged.readOutput(), as: UTF8.self) == "out\nerr\n")
        merged.waitForExit()

        let path = "/tmp/spawned-process-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        try SpawnedProcess("/bin/sh", ["-c", "echo written"], output: .file(path)).waitForExit()
        let copy = try SpawnedProcess("/bin/cat", [], input: .file(path), output: .pipe)
        #expect(String(decoding: copy.readOutput(), as: UTF8.self) == "written\n")
        copy.waitForExit()
    }

    @Test("a program that is not there is a LaunchError naming it")
    func missingProgram() {
        #expect {
            _ = try SpawnedProcess("/nonexistent/program", [])
        } throws: { error in
            "\(error)" == "cannot run /nonexistent/program: No such file or directory"
        }
    }

    @Test("200 children started at once from many tasks: every end is seen")
    func manyAtOnce() async throws {
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let child = try SpawnedProcess("/bin/sh", ["-c", "exit \(index % 7)"], output: .pipe)
                    _ = child.readOutput()
                    return await child.exit() - Int32(index % 7)
                }
            }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == 0 })
    }

    /// The descriptors `pid` has open, from /proc.
    private func descriptors(of pid: pid_t) throws -> [Int32] {
        guard let folder = opendir("/proc/\(pid)/fd") else { throw SpawnTestFailure("cannot list /proc/\(pid)/fd") }
        defer { closedir(folder) }
        var found: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name) { found.append(fd) }
        }
        return found.sorted()
    }
}

private struct SpawnTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
