// FuzzTargets: one harness per parser of untrusted input, shared by the libFuzzer executable
// (`hybrid-fuzz`, `make fuzz`) and the tests that replay the seed corpus (`FuzzTargetsTests`).
// A harness feeds its input to the parser and checks what must hold of whatever the parser
// accepts; it throws a FuzzFinding when that does not hold. A crash is a finding too, caught by
// the sanitizers under libFuzzer.

/// A parser under fuzzing: its name (the corpus folder `Fuzz/Corpus/<name>/`, the dictionary
/// `Fuzz/Dictionaries/<name>.dict`) and the harness that runs one input.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What the harness feeds and what it checks, for `hybrid-fuzz list`.
    public let summary: String
    public let run: @Sendable (_ input: [UInt8]) throws(FuzzFinding) -> Void

    public init(name: String, summary: String, run: @escaping @Sendable (_ input: [UInt8]) throws(FuzzFinding) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [
        JSONFuzzTarget.target, SchemaFuzzTarget.target, ViewFuzzTarget.target, QueryFuzzTarget.target,
        SyncFuzzTarget.target, PatchFuzzTarget.target, HTTPHeadersFuzzTarget.target, JSValueFuzzTarget.target, TokenFuzzTarget.target,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Something that must hold of an accepted input did not: the harness's own check failed.
public struct FuzzFinding: Error, CustomStringConvertible {
    public let target: String
    public let message: String

    public init(_ target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "\(target): \(message)" }
}
