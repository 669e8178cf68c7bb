/// Reads choices out of the fuzzer's bytes, front to back, as LLVM's FuzzedDataProvider does: for
/// harnesses that build their input (a JS expression, a header block) rather than parse it whole.
/// Once the bytes run out every read gives the smallest choice, so any input is a whole program.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isExhausted: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in `range`, from one byte (ranges of up to 256 values are uniform).
    mutating func pick(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(byte()) % (range.count)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[pick(0...(choices.count - 1))] }

    mutating func flag() -> Bool { byte() & 1 == 1 }

    /// Up to `limit` bytes, as many as the next byte says.
    mutating func bytes(upTo limit: Int) -> [UInt8] {
        let count = min(pick(0...limit), bytes.count - min(index, bytes.count))
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }
}
