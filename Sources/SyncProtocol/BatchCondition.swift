import JSON

/// One test of a batch op's `where`: `{FIELD: value}` is equality, `{FIELD: {"lt": v}}` (and lte,
/// gt, gte, ne) a comparison.
///
/// Clients replicate this exactly, so it is deliberately small: a missing field reads as null;
/// equality is JSON equality (numbers by value, objects ignoring key order); `ne` is its negation;
/// the ordering comparisons hold only between two numbers or two strings (strings in UTF-8 byte
/// order, which is code point order and SQLite's BINARY collation) and are false otherwise.
public struct BatchCondition: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case eq, ne, lt, lte, gt, gte
    }

    public var field: String
    public var comparison: Comparison
    public var value: JSONValue

    public init(field: String, comparison: Comparison, value: JSONValue) {
        self.field = field
        self.comparison = comparison
        self.value = value
    }

    /// Whether `data` passes this test.
    public func matches(_ data: JSONObject) -> Bool {
        let actual = data[field] ?? .null
        switch comparison {
        case .eq: return actual == value
        case .ne: return actual != value
        case .lt: return order(actual, value).map { $0 < 0 } ?? false
        case .lte: return order(actual, value).map { $0 <= 0 } ?? false
        case .gt: return order(actual, value).map { $0 > 0 } ?? false
        case .gte: return order(actual, value).map { $0 >= 0 } ?? false
        }
    }

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else.
    private func order(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)):
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        default:
            return nil
        }
    }
}
