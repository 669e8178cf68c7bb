/// One request as the proxy saw it and what it decided to do, recorded in arrival order: a failing
/// test prints these with its seed so the run can be read and replayed.
public struct FaultEvent: Sendable, Equatable, CustomStringConvertible {
    /// 1 for the first request the proxy read, then up by one in arrival order.
    public let number: Int
    public let method: String
    public let path: String
    public let kind: FaultKind
    /// The pause, for a `delay`.
    public let delayMs: Int?
    /// The held request this one was forwarded ahead of, when it arrived during a `reorder` hold.
    public let aheadOf: Int?

    public init(number: Int, method: String, path: String, kind: FaultKind, delayMs: Int? = nil, aheadOf: Int? = nil) {
        self.number = number
        self.method = method
        self.path = path
        self.kind = kind
        self.delayMs = delayMs
        self.aheadOf = aheadOf
    }

    public var description: String {
        var text = "#\(number) \(method) \(path) \(kind)"
        if let delayMs { text += " \(delayMs)ms" }
        if let aheadOf { text += " ahead of #\(aheadOf)" }
        return text
    }
}
