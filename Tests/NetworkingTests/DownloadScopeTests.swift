import Bridge
import Foundation
import Glibc
import JSON
import Networking
import Testing

/// A download goes anywhere in the app's data folder but into the host's own entries there (the
/// patch ledger, the patches drop folder, kv and database files, hidden entries), however the
/// path names them: through `..`, in another case, or as the file system sees it under another name.
@Suite("network.download stays out of the host's own entries of the data folder")
struct DownloadScopeTests {
    @Test("a path into one of the host's entries is E_BAD_PARAMS at /path, naming the entry and what was expected",
          arguments: [
              ("patch-ledger/ledger.json", "patch-ledger, the host's patch ledger"),
              ("media/../patch-ledger/ledger.json", "patch-ledger, the host's patch ledger"),
              ("PATCH-LEDGER/ledger.json", "PATCH-LEDGER, the host's patch ledger"),
              ("patch-ledger. /ledger.json", "patch-ledger. , the host's patch ledger"),
              ("patches/p.json", "patches, the host's patches drop folder"),
              ("patche\u{17F}/p.json", "patche\u{17F}, the host's patches drop folder"),
              (".kv.sqlite", ".kv.sqlite, a hidden entry"),
              (".kv.sqlite-journal", ".kv.sqlite-journal, a hidden entry"),
              (".http-cache/0123", ".http-cache, a hidden entry"),
              (".network-queue.sqlite", ".network-queue.sqlite, a hidden entry"),
              (".network-queue.sqlite-wal", ".network-queue.sqlite-wal, a hidden entry"),
              ("tasks.sqlite", "tasks.sqlite, a storage database file"),
              ("tasks.sqlite-wal", "tasks.sqlite-wal, a storage database's write-ahead log"),
              ("tasks.sqlite-shm", "tasks.sqlite-shm, a storage database's shared-memory index"),
              ("tasks.sqlite-journal", "tasks.sqlite-journal, a storage database's rollback journal"),
              ("TASKS.SQLite", "TASKS.SQLite, a storage database file"),
              ("device-id", "device-id, the host's device id"),
              ("repl_history", "repl_history, the host's REPL history"),
          ])
    func refused(path: String, entry: String) async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("download", ["url": "http://127.0.0.1:1/x", "path": .string(path)])
        #expect(error?.code == .badParams, "\(String(describing: error))")
        #expect(error?.path == "/path")
        let message = error?.message ?? ""
        #expect(message.hasPrefix("params/path: \"\(path)\" writes into \(entry)"), "\(message)")
        #expect(message.contains("downloads may not write into the host's own entries of the data folder ("), "\(message)")
        #expect(message.contains("expected a path outside them, such as \"media/"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory).isEmpty, "nothing made, not even a folder")
    }

    @Test("the message lists every entry the host keeps")
    func message() async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("download", ["url": "http://127.0.0.1:1/x", "path": "patch-ledger/ledger.json"])
        #expect(error?.message == """
            params/path: "patch-ledger/ledger.json" writes into patch-ledger, the host's patch ledger; downloads may not write into the \
            host's own entries of the data folder (device-id, patch-ledger, patches, repl_history, *.sqlite, *.sqlite-journal, \
            *.sqlite-shm, *.sqlite-wal, names starting with a dot); expected a path outside them, such as "media/ledger.json"
            """)
    }

    @Test("below the top of the data folder the same names are the app's, and a download lands there",
          arguments: ["media/patch-ledger/ledger.json", "media/patches/p.json", "media/.kv.sqlite", "media/tasks.sqlite",
                      "ledger.json", "tasks.sqlite.bak", "sqlite", "patches.json"])
    func appsOwn(path: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let result = try await call("download", ["url": .string(server.base + "/small"), "path": .string(path)])
        #expect(result["saved"] == true && result["path"] == .string(path), "\(result)")
        #expect(FileManager.default.fileExists(atPath: call.dataDirectory + "/" + path))
    }

    @Test("a symbolic link to one of the host's entries does not reach it, as a folder on the way or as the file")
    func symbolicLinks() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let data = call.dataDirectory
        try FileManager.default.createDirectory(atPath: data + "/patch-ledger", withIntermediateDirectories: true)
        try "{}".write(toFile: data + "/patch-ledger/ledger.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: data + "/media", withDestinationPath: "patch-ledger")
        try FileManager.default.createSymbolicLink(atPath: data + "/notes.json", withDestinationPath: "patch-ledger/ledger.json")
        for path in ["media/ledger.json", "notes.json"] {
            let error = await call.failure("download", ["url": .string(server.base + "/small"), "path": .string(path)])
            #expect(error?.code == .badParams && error?.path == "/path", "\(path): \(String(describing: error))")
        }
        #expect(try String(contentsOfFile: data + "/patch-ledger/ledger.json", encoding: .utf8) == "{}")
    }

    @Test("the data folder or one of the host's folders mounted under another name is seen through")
    func bindMounts() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let data = call.dataDirectory
        for folder in ["patch-ledger", "media", "again"] {
            try FileManager.default.createDirectory(atPath: data + "/" + folder, withIntermediateDirectories: true)
        }
        try "{}".write(toFile: data + "/patch-ledger/ledger.json", atomically: true, encoding: .utf8)
        // media is the ledger's folder, again is the data folder itself.
        for (source, target) in [("/patch-ledger", "/media"), ("", "/again")] {
            guard mount(data + source, data + target, nil, UInt(MS_BIND), nil) == 0 else {
                Issue.record("bind-mounting \(data + source) failed (\(String(cString: strerror(errno)))); this test needs root")
                return
            }
        }
        defer { for target in ["/again", "/media"] { umount2(data + target, Int32(MNT_DETACH)) } }
        let expected = [
            "media/ledger.json": "media is patch-ledger, the host's patch ledger, under another name",
            "again/patch-ledger/ledger.json": "writes into patch-ledger, the host's patch ledger",
            "again/.kv.sqlite": "writes into .kv.sqlite, a hidden entry",
            "again/tasks.sqlite": "writes into tasks.sqlite, a storage database file",
        ]
        for (path, says) in expected.sorted(by: { $0.key < $1.key }) {
            let error = await call.failure("download", ["url": .string(server.base + "/small"), "path": .string(path)])
            #expect(error?.code == .badParams && error?.path == "/path", "\(path): \(String(describing: error))")
            #expect(error?.message.contains(says) == true, "\(path): \(error?.message ?? "")")
        }
        #expect(try String(contentsOfFile: data + "/patch-ledger/ledger.json", encoding: .utf8) == "{}")
        #expect(!FileManager.default.fileExists(atPath: data + "/.kv.sqlite"))
        // The app's own entries stay reachable through the mount.
        let result = try await call("download", ["url": .string(server.base + "/small"), "path": "again/notes.txt"])
        #expect(result["saved"] == true)
    }

    @Test("a service made without the host's layout still keeps out of hidden entries, its own")
    func hiddenOnly() async throws {
        let call = try NetworkCall(hostEntries: .hiddenOnly)
        defer { call.remove() }
        let error = await call.failure("download", ["url": "http://127.0.0.1:1/x", "path": ".http-cache/x"])
        #expect(error?.code == .badParams && error?.path == "/path")
        let other = await call.failure("download", ["url": "http://127.0.0.1:1/x", "path": "patch-ledger/ledger.json"])
        #expect(other?.details?["reason"] == "connect", "without the layout, the name is the app's")
    }
}
