import Testing

/// Values the host makes for JS must be reachable by JavaScriptCore's collector from the moment
/// they exist: a value held only in Swift memory is invisible to it and may be freed while the
/// next one is made. Found by the soak with the JITs off, whose collections fall at other moments.
@Suite("the collector")
struct CollectorSafetyTests {
    @Test("an answer built natively survives collections while it is built")
    func answersSurviveCollection() async throws {
        let result = try await HybridProcess.run(
            ["run", HybridProcess.fixture("scripts/answers-under-collection.js"), "--grant", "bridge"],
            timeLimit: .seconds(120),
            // A collection at every allocation that leaves JavaScriptCore's fast path.
            environment: ["JSC_slowPathAllocsBetweenGCs": "1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "all answers intact\n", "\(result)")
    }
}
