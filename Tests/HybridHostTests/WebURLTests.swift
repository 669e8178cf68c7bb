import Foundation
import Testing

/// URL and URLSearchParams (issue 28, item 1) through the real `hybrid run`: the same script under
/// node 20 and under hybrid prints the same, case by case (parsing and serializing, relative
/// references, file URLs, opaque paths, IDNA domains through ICU, IPv4 number forms, IPv6, the
/// setters, URLSearchParams live-linked to its URL). The web-platform-tests' url/ directory holds
/// the rest (scripts/wpt url).
@Suite("URL and URLSearchParams as node has them")
struct WebURLTests {
    @Test("every case parses, serializes and changes as under node")
    func sameAsNode() async throws {
        let script = HybridProcess.fixture("scripts/web-url.js")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        try #require(node.status == 0, "node: \(node.output)")
        let hybrid = try await HybridProcess.run(["run", script], timeLimit: .seconds(60))
        #expect(hybrid.status == 0, "\(hybrid)")
        #expect(hybrid.standardError.isEmpty, "\(hybrid)")
        let expected = node.output.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = hybrid.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(actual.count == expected.count, "\(actual.count) lines under hybrid, \(expected.count) under node")
        for (line, (ours, theirs)) in zip(actual, expected).enumerated() where ours != theirs {
            Issue.record("line \(line + 1)\n  hybrid: \(ours)\n  node:   \(theirs)")
        }
        // Not only the same as node, but what the standard says, for a few that need ICU and the IPv6 serializer.
        #expect(hybrid.standardOutput.contains(#"["http://Bücher.example/"]: ["http://xn--bcher-kva.example/""#))
        #expect(hybrid.standardOutput.contains(#"["http://[1:0:0:2::3:0]/"]: ["http://[1::2:0:0:3:0]/""#))
        #expect(hybrid.standardOutput.contains("[\"http://a\u{200D}b.example/\"]: \"TypeError\""))
    }
}
