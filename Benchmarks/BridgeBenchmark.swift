public struct BridgeBenchmark {
    public init(iterations: Int?) {}
    public func run() {}
}
public struct StartupBenchmark {
    public init(iterations: Int?) {}
    public func run() {}
}
