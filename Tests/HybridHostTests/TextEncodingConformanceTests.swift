import Foundation
import Testing

/// TextEncoder, TextDecoder, atob and btoa as `hybrid run` gives them to a script: where node 20
/// follows the WHATWG Encoding Standard, both run Fixtures/scripts/text-encoding.js and must print
/// the same; where node's ICU converters do not (windows-1252's 0x80–0x9F, Big5's Hong Kong
/// characters, the Unified Hangul Code, gb18030's four bytes in GBK, ISO-2022-JP's escapes, ...),
/// text-encoding-legacy.js must print its expected.txt, each line checked against the standard.
/// The web-platform-tests' encoding/ directory (scripts/wpt encoding) checks the rest.
@Suite struct TextEncodingConformanceTests {
    static let scripts = HybridProcess.fixtures.appendingPathComponent("scripts")

    @Test("labels, UTF-8 and UTF-16, single-byte and CJK text, streaming, fatal errors, encodeInto, atob and btoa print what node prints")
    func matchesNode() async throws {
        let ours = try await HybridProcess.run(["run", Self.scripts.appendingPathComponent("text-encoding.js").path], timeLimit: .seconds(120))
        let node = try await HybridProcess.tool(["node", "text-encoding.js"], directory: Self.scripts)
        #expect(ours.status == 0, "\(ours)")
        #expect(node.status == 0, "node: \(node.output)")
        #expect(ours.standardOutput == node.output, "hybrid: \(ours)\nnode: \(node.output)")
        #expect(ours.standardOutput.split(separator: "\n").count >= 130)
    }

    @Test("the legacy encodings decode as the standard says where node's ICU does not")
    func legacyEncodings() async throws {
        let ours = try await HybridProcess.run(["run", Self.scripts.appendingPathComponent("text-encoding-legacy.js").path], timeLimit: .seconds(120))
        let expected = try String(contentsOf: Self.scripts.appendingPathComponent("text-encoding-legacy.expected.txt"), encoding: .utf8)
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.standardOutput == expected, "\(ours)")
    }
}
