import Bridge
import Foundation
import HostTesting
import JSON
import Synchronization
import Testing

@Suite("network.download and network.progress")
struct NetworkDownloadTests {
    @Test("a download lands in the data folder and its progress can be followed to the end")
    func progress() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let id = UUID().uuidString
        let watcher = Task { () -> [JSONValue] in
            var seen: [JSONValue] = []
            var since = 0
            while true {
                let snapshot = try await call("progress", ["requestId": .string(id), "since": .number(Double(since)), "timeoutMs": 5000])
                seen.append(snapshot)
                since = snapshot["seq"]?.intValue ?? since
                if snapshot["state"] == "done" || snapshot["state"] == "failed" { return seen }
            }
        }
        let result = try await call("download", ["url": .string(server.base + "/bytes?n=300000&chunks=6&chunkMs=40"),
                                                 "path": "media/clip.bin", "requestId": .string(id)])
        #expect(result["saved"] == true)
        #expect(result["bytes"] == 300_000)
        #expect(result["path"] == "media/clip.bin")
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: call.dataDirectory + "/media/clip.bin")))
        #expect(file == (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let seen = try await watcher.value
        #expect(seen.last?["state"] == "done")
        #expect(seen.last?["received"] == 300_000)
        #expect(seen.contains { $0["state"] == "running" && ($0["received"]?.intValue ?? 0) < 300_000 && $0["total"] == 300_000 })
        let seqs = seen.compactMap { $0["seq"]?.intValue }
        #expect(seqs == seqs.sorted())
        // No partial file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory + "/media") == ["clip.bin"])
    }

    @Test("an error answer is reported and not saved over the file")
    func notFound() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let result = try await call("download", ["url": .string(server.base + "/status/404"), "path": "missing.txt"])
        #expect(result["saved"] == false)
        #expect(result["status"] == 404)
        #expect(!FileManager.default.fileExists(atPath: call.dataDirectory + "/missing.txt"))
    }

    @Test("paths that leave the data folder are E_BAD_PARAMS", arguments: ["../escape.txt", "a/../../escape.txt", "/etc/passwd", "", "dir/"])
    func escapes(path: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("download", ["url": .string(server.base + "/small"), "path": .string(path)])
        #expect(error?.code == .badParams)
        #expect(error?.path == "/path")
    }

    @Test("a symbolic link on the way out of the data folder is refused")
    func symlink() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let outside = NSTemporaryDirectory() + "outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createSymbolicLink(atPath: call.dataDirectory + "/link", withDestinationPath: outside)
        let error = await call.failure("download", ["url": .string(server.base + "/small"), "path": "link/file.txt"])
        #expect(error?.code == .badParams)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test("a failed download leaves no file and reports failed progress")
    func failed() async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let id = UUID().uuidString
        let error = await call.failure("download", ["url": "http://127.0.0.1:1/x", "path": "x.bin", "requestId": .string(id)])
        #expect(error?.details?["reason"] == "connect")
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory).isEmpty)
        let snapshot = try await call("progress", ["requestId": .string(id), "timeoutMs": 0])
        #expect(snapshot["state"] == "failed")
    }

    @Test("a download onto a full disk is E_FAILED disk_full and leaves no partial file; with room again it lands")
    func fullDisk() async throws {
        let server = try await SharedServer.get()
        let disk = try SmallDisk(kilobytes: 128)
        defer { disk.remove() }
        let call = try NetworkCall(dataDirectory: disk.path)
        let url = JSONValue.string(server.base + "/bytes?n=300000")
        let error = await call.failure("download", ["url": url, "path": "media/clip.bin"])
        #expect(error?.code == .failed && error?.details?["reason"] == "disk_full", "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/media").isEmpty, "no partial file")
        try disk.resize(kilobytes: 1024)
        let result = try await call("download", ["url": url, "path": "media/clip.bin"])
        #expect(result["saved"] == true && result["bytes"] == 300_000)
    }

    @Test("a progress poll for a download that never starts answers waiting after its timeout")
    func unknown() async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let snapshot = try await call("progress", ["requestId": "nobody", "timeoutMs": 50])
        #expect(snapshot["state"] == "waiting")
        #expect(snapshot["seq"] == 0)
    }
}
