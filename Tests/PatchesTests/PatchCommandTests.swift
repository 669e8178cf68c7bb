import Foundation
import HostTesting
import SystemIO
import Testing

/// `hybrid patch keygen | sign | verify | apply | list | rollback`, run as a user runs them.
@Suite("hybrid patch")
struct PatchCommandTests {
    /// The `hybrid` built beside this test bundle (`HYBRID_BINARY` may point at another).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["HYBRID_BINARY"], !path.isEmpty { return path }
        return BuiltHybrid.path ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hybrid").path
    }

    struct Run {
        let status: Int32
        let output: String
    }

    func hybrid(_ arguments: [String], in folder: String) throws -> Run {
        let process = try SpawnedProcess(Self.binary, arguments, directory: folder, output: .pipe, error: .sameAsOutput)
        let data = process.readOutput()
        return Run(status: process.waitForExit(), output: String(decoding: data, as: UTF8.self))
    }

    @Test("keygen, sign, verify, apply, list and rollback: refusals exit 1 and say why; the history keeps the reasons")
    func lifecycle() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build hybrid first: \(Self.binary)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patch-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/app", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let keygen = try hybrid(["patch", "keygen", "--out", "signing.key"], in: folder)
        #expect(keygen.status == 0)
        let publicKey = keygen.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try hybrid(["patch", "keygen", "--out", "signing.key"], in: folder).status == 2)

        try #"{"name": "cli", "version": "2.0.0", "patchKeys": ["\#(publicKey)"]}"#.write(toFile: folder + "/app/app.json", atomically: true, encoding: .utf8)
        try "exports.f = () => 1;\n".write(toFile: folder + "/app/main.js", atomically: true, encoding: .utf8)
        try "exports.f = () => 2;\n".write(toFile: folder + "/fix.js", atomically: true, encoding: .utf8)
        try #"{"app": "cli", "patchVersion": 1, "baseVersion": "2.0.0", "modules": {"main.js": {"mode": "amend", "file": "fix.js"}}}"#
            .write(toFile: folder + "/patch.json", atomically: true, encoding: .utf8)

        #expect(try hybrid(["patch", "sign", "--key", "signing.key", "patch.json", "-o", "signed.json"], in: folder).status == 0)
        let verify = try hybrid(["patch", "verify", "app", "signed.json", "--data-dir", "data"], in: folder)
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("ok: patch 1 for cli 2.0.0"))

        let tampered = try String(contentsOfFile: folder + "/signed.json", encoding: .utf8).replacingOccurrences(of: "() => 2", with: "() => 3")
        try tampered.write(toFile: folder + "/tampered.json", atomically: true, encoding: .utf8)
        let refused = try hybrid(["patch", "apply", "app", "tampered.json", "--data-dir", "data"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.output.contains("refused (bad_hash)"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/patch-ledger/ledger.json"))

        #expect(try hybrid(["patch", "apply", "app", "signed.json", "--data-dir", "data"], in: folder).status == 0)
        let replay = try hybrid(["patch", "apply", "app", "signed.json", "--data-dir", "data"], in: folder)
        #expect(replay.status == 1)
        #expect(replay.output.contains("a downgrade or a replay"))

        #expect(try hybrid(["patch", "list", "app", "--data-dir", "data"], in: folder).output.contains("patch 1 in effect"))
        #expect(try hybrid(["patch", "rollback", "app", "--data-dir", "data", "--reason", "broke checkout"], in: folder).status == 0)
        let list = try hybrid(["patch", "list", "app", "--data-dir", "data"], in: folder)
        #expect(list.output.contains("shipped code"))
        #expect(list.output.contains("rolledBack"))
        #expect(list.output.contains("reason: broke checkout"))
        #expect(try hybrid(["patch", "rollback", "app", "--data-dir", "data"], in: folder).status == 1)
    }
}
