import Foundation
import HostTesting
import SystemIO
import Testing

/// The web platform's part 2 as a user meets it: a published package built for web runtimes, and a
/// business module that signs, compresses and builds an upload, each run under `hybrid run` and under
/// node, the outputs compared line for line.
@Suite("the web platform as H5 code uses it, beside node")
struct WebAcceptanceTests {
    @Test("Debian's node-jose signs and verifies HS256, EdDSA and ES256 JWTs and opens a dir + A256GCM JWE, printing what node prints")
    func jose() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-jose")
        defer { folder.remove() }
        let directory = FileSystem.realPath(folder.path) ?? folder.path
        try FileManager.default.createDirectory(atPath: directory + "/node_modules", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/nodejs/jose", toPath: directory + "/node_modules/jose")
        try FileManager.default.copyItem(atPath: HybridProcess.fixture("scripts/web-jose.mjs"), toPath: directory + "/main.mjs")
        let ours = try await HybridProcess.run(["run", directory + "/main.mjs"], timeLimit: .seconds(300))
        let node = try await HybridProcess.tool(["node", "--conditions=worker", "main.mjs"], directory: URL(fileURLWithPath: directory), mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains("ES256 verified {\"sub\":\"order-service\""), "node: \(node.output)")
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
    }

    @Test("a module that signs an order with ECDSA, gzips a report through CompressionStream and builds a FormData prints what node prints")
    func orderModule() async throws {
        let script = HybridProcess.fixture("scripts/web-order.mjs")
        let ours = try await HybridProcess.run(["run", script], timeLimit: .seconds(300))
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains("round trip true"), "node: \(node.output)")
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
    }
}
