/// The members of an object, or the items of an array, that the keywords applied to it evaluated,
/// by index: the annotations `unevaluatedProperties` and `unevaluatedItems` read.
///
/// Instances have a handful of members, so the first 64 indexes are the bits of one word held
/// inline, and gathering them allocates nothing; a longer instance spills into an array.
struct SchemaEvaluatedSet {
    /// How many members or items the instance has; 0 for ``unwanted``.
    let count: Int
    private var first: UInt64 = 0
    /// Indexes 64 and up, 64 to a word; nil for an instance of 64 or fewer.
    private var rest: [UInt64]?

    /// A set for an instance of `count` members or items, more than 0.
    init(count: Int) {
        self.count = count
        rest = count > 64 ? [UInt64](repeating: 0, count: (count - 1) / 64) : nil
    }

    /// The set handed down where no `unevaluated*` reads what is evaluated: nothing need be marked.
    @inline(__always)
    static var unwanted: SchemaEvaluatedSet { SchemaEvaluatedSet(count: 0) }

    /// Whether some `unevaluated*` reads this set, so that marking it is worth the work.
    @inline(__always)
    var isWanted: Bool { count > 0 }

    func contains(_ index: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(index % 64)
        return (index < 64 ? first : rest![index / 64 - 1]) & bit != 0
    }

    mutating func insert(_ index: Int) {
        let bit: UInt64 = 1 << UInt64(index % 64)
        if index < 64 {
            first |= bit
        } else {
            rest![index / 64 - 1] |= bit
        }
    }

    mutating func insertAll() {
        first = .max
        if let words = rest?.count { rest = [UInt64](repeating: .max, count: words) }
    }
}
