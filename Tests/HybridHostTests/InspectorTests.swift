import Foundation
import Glibc
import HostTesting
import JSON
import ScriptSources
import SystemIO
import Testing

/// `hybrid run --inspect-brk` as a debugger meets it: the real binary, its WebSocket on
/// 127.0.0.1, the WebKit Inspector Protocol, a TypeScript app whose bridge calls complete while
/// it is paused.
@Suite("The inspector", .timeLimit(.minutes(3)))
struct InspectorTests {
    static let app = HybridProcess.fixture("inspected")

    /// Starts `hybrid run APP --inspect-brk` and reads the URL from its first stderr line.
    static func start(_ flag: String = "--inspect-brk") async throws -> (LiveProcess, url: String, data: String) {
        let data = NSTemporaryDirectory() + "inspected-\(UUID().uuidString)"
        // The hub's trace goes to stderr too: if a test fails, it says what went through.
        let process = try LiveProcess(HybridProcess.binary.path, ["run", app, flag, "--data-dir", data], environment: ["HYBRID_INSPECTOR_TRACE": "1"])
        let listening = await process.wait(timeout: 60) { $0.standardError.contains("Debugger listening") || $0.exitStatus != nil }
        try #require(listening, "no URL on stderr: \(process.output.standardError)")
        let line = try #require(process.output.standardError.split(separator: "\n").first { $0.hasPrefix("Debugger listening") }.map(String.init))
        #expect(line.hasPrefix("Debugger listening on ws://127.0.0.1:"), "\(line)")
        let url = try #require(line.split(separator: " ").last.map(String.init))
        return (process, url, data)
    }

    @Test("--inspect-brk pauses at the first statement; a breakpoint in a .ts line, evaluation, and bridge calls answered after the pause")
    func breakpointsAndBridge() async throws {
        let (process, url, data) = try await Self.start()
        var finished = false
        defer {
            Self.report(process, finished: finished)
            process.stop()
            try? FileManager.default.removeItem(atPath: data)
        }
        let session = try await InspectorProbe.connect(url)
        _ = try await session.call("Debugger.enable")
        _ = try await session.call("Debugger.setBreakpointsActive", ["active": true])
        // Nothing runs before the debugger says it is ready.
        try await Task.sleep(for: .milliseconds(300))
        #expect(process.output.standardOutput.isEmpty)
        _ = try await session.call("Runtime.runIfWaitingForDebugger")

        // The entry pause: main.ts's first statement, just past the module wrapper on line 0.
        let entry = try await session.event("Debugger.paused")
        let entryFrame = try #require(entry["callFrames"]?.arrayValue?.first)
        let scriptID = try #require(entryFrame["location"]?["scriptId"]?.stringValue)
        let script = try #require(session.scripts[scriptID])
        #expect(script["url"]?.stringValue == FileSystem.realPath(Self.app + "/main.ts"))
        let mapURL = try #require(script["sourceMapURL"]?.stringValue, "a transformed module carries its map under --inspect")
        let map = try SourceMap(json: try #require(Self.decodeDataURL(mapURL)))
        let entryLine = try #require(entryFrame["location"]?["lineNumber"]?.intValue)
        let entryColumn = try #require(entryFrame["location"]?["columnNumber"]?.intValue)
        #expect(map.original(line: entryLine, column: entryColumn)?.line == 0, "the entry maps to main.ts's first line")

        // A breakpoint on main.ts line 9 (0-based 8), set in the compiled line the map names.
        let source = try #require(try await session.call("Debugger.getScriptSource", ["scriptId": .string(scriptID)])["scriptSource"]?.stringValue)
        let generatedLine = try #require(source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().first { index, text in
            guard let column = text.firstIndex(where: { $0 != " " }) else { return false }
            return map.original(line: index, column: text.distance(from: text.startIndex, to: column))?.line == 8
        }?.offset)
        let set = try await session.call("Debugger.setBreakpointByUrl", ["url": .string(script["url"]?.stringValue ?? ""), "lineNumber": .number(Double(generatedLine))])
        #expect(set["breakpointId"]?.stringValue != nil)
        _ = try await session.call("Debugger.resume")

        let hit = try await session.event("Debugger.paused")
        let frame = try #require(hit["callFrames"]?.arrayValue?.first)
        #expect(frame["functionName"]?.stringValue == "main")
        let line = try #require(frame["location"]?["lineNumber"]?.intValue)
        let column = try #require(frame["location"]?["columnNumber"]?.intValue)
        #expect(map.original(line: line, column: column)?.line == 8, "paused at main.ts line 9")
        let frameID = try #require(frame["callFrameId"]?.stringValue)
        let evaluated = try await session.call("Debugger.evaluateOnCallFrame", ["callFrameId": .string(frameID), "expression": "tally.count * 10", "returnByValue": true])
        #expect(evaluated["result"]?["value"]?.intValue == 20)
        // The kv read and the 10 ms timer complete while the app is held here; neither is lost.
        try await Task.sleep(for: .milliseconds(500))
        #expect(process.output.standardOutput.isEmpty)
        _ = try await session.call("Debugger.removeBreakpoint", ["breakpointId": set["breakpointId"] ?? .null])
        _ = try await session.call("Debugger.resume")

        let ended = await process.wait(timeout: 60) { $0.exitStatus != nil }
        #expect(ended)
        #expect(process.output.exitStatus == 0, "\(process.output.standardError)")
        #expect(process.output.standardOutput.hasPrefix("answered {\"value\":1,"), "\(process.output.standardOutput)")
        #expect(process.output.standardOutput.hasSuffix(" timer 3\n"), "\(process.output.standardOutput)")
        session.close()
        finished = true
    }

    @Test("the socket refuses a debugger without the secret, from another Host, and a second one; it listens on 127.0.0.1 only")
    func refusals() async throws {
        let (process, url, data) = try await Self.start()
        var finished = false
        defer {
            Self.report(process, finished: finished)
            process.stop()
            try? FileManager.default.removeItem(atPath: data)
        }
        let (port, secret) = try #require(InspectorProbe.address(of: url))
        for (resource, host) in [("/", "127.0.0.1:\(port)"), ("/" + String(secret.reversed()), "127.0.0.1:\(port)"),
                                 ("/\(secret)", "evil.example:\(port)"), ("/\(secret)", "localhost:1")] {
            let status = try Self.handshakeStatus(port: port, resource: resource, host: host)
            #expect(status == "HTTP/1.1 403 Forbidden", "\(resource) Host: \(host)")
        }
        let first = try await InspectorProbe.connect(url)
        #expect(try Self.handshakeStatus(port: port, resource: "/\(secret)", host: "127.0.0.1:\(port)") == "HTTP/1.1 409 Conflict",
                "a second debugger is refused while one is attached")
        // The first still works.
        #expect(try await first.call("Runtime.evaluate", ["expression": "6 * 7", "returnByValue": true])["result"]?["value"]?.intValue == 42)

        // Every socket the process listens on is bound to 127.0.0.1.
        let listening = try Self.listeningAddresses(of: process.processIdentifier)
        #expect(listening.count == 2, "\(listening)")
        #expect(listening.allSatisfy { $0.hasPrefix("0100007F:") }, "\(listening)")

        // Anyone else who finds JavaScriptCore's port is not taken for the target.
        let targetPort = try #require(listening.compactMap { Int($0.split(separator: ":")[1], radix: 16) }.first { $0 != port })
        let intruder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(intruder) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(targetPort).bigEndian),
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(intruder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(connected == 0)
        var wait = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(intruder, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        #expect(recv(intruder, &byte, 1, 0) == 0, "the hub closes a connection from another process")
        first.close()
        finished = listening.count == 2
    }

    /// The status line a WebSocket opening handshake gets, sent by hand (the client library writes
    /// its own Host).
    static func handshakeStatus(port: Int, resource: String, host: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: in_port_t(UInt16(port).bigEndian),
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        try #require(connected == 0)
        let request = "GET \(resource) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !answer.contains(UInt8(ascii: "\n")) {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            answer += chunk[0..<count]
        }
        return String(decoding: answer, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
    }

    /// A test that did not reach its end: the child's stderr (the hub's trace), for the failure.
    static func report(_ process: LiveProcess, finished: Bool) {
        guard !finished else { return }
        print("hybrid run --inspect-brk (exit \(String(describing: process.output.exitStatus))); stderr:\n\(process.output.standardError.suffix(6000))")
    }

    static func decodeDataURL(_ url: String) -> String? {
        let prefix = "data:application/json;base64,"
        guard url.hasPrefix(prefix), let bytes = Base64.decode(String(url.dropFirst(prefix.count))) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `ADDRESS:PORT` (hex, as /proc/net/tcp writes them) of each socket `pid` listens on.
    static func listeningAddresses(of pid: Int32) throws -> [String] {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        let inodes = Set(descriptors.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
        var listening: [String] = []
        for table in ["/proc/\(pid)/net/tcp", "/proc/\(pid)/net/tcp6"] {
            // Read to its end: a procfs file says its size is 0, and a loaded machine's table is long.
            let text = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: table)).readToEnd()).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // State 0A: LISTEN.
                if fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) { listening.append(String(fields[1])) }
            }
        }
        return listening
    }
}
