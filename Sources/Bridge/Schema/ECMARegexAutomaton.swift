/// Matches an ECMA-262 pattern that is a regular expression in the strict sense (no
/// backreferences, no lookaround) with a position automaton over Unicode scalars, without Swift's
/// `Regex`: what ``SchemaPattern`` runs whenever the pattern allows it.
///
/// `Regex` costs about half a microsecond per match whatever the pattern, which is most of what a
/// contract such as `^[A-Z]{2}-[0-9]+$` costs to check. The patterns contracts write are small, so
/// the automaton is a bit set of states (one per character-matching atom, plus "matched"), and
/// one step per scalar ORs together the precomputed successors of the states that admit it.
/// There is no backtracking, so no pattern is slow: a match costs at most the string's length
/// times the number of states.
///
/// Only a question of membership is asked (JSON Schema's `pattern` is an unanchored search with
/// no captures), so lazy and greedy quantifiers, and the order of alternatives, mean the same.
/// The subset, with ECMA-262's meaning (the `u` flag, no other flags):
/// - literals; the escapes `\t \n \v \f \r`, `\0`, `\xHH`, `\uHHHH` (not half a surrogate pair)
///   and escaped syntax characters;
/// - `.` (any scalar but `\n`, `\r`, U+2028, U+2029); `\d`, `\w`, `\s` and their negations, ASCII
///   except `\s` (ECMA-262's white space and line terminators);
/// - classes `[...]` and `[^...]` of those, with ranges between single characters, `\b` as
///   U+0008, `[]` and `[^]`;
/// - `^` and `$` at the very start and end only (no multiline flag);
/// - `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, greedy or lazy; groups `(...)` and `(?:...)`; `|`.
///
/// Anything else (backreferences, lookaround, `\b`, `\B`, `\p{...}`, `\cX`, `\u{...}`, named
/// groups), a `-` in a class that is neither a range nor at an end, and a pattern over
/// ``maximumStates`` states after counted repeats are unrolled, is left to `Regex`: `init`
/// returns nil.
final class ECMARegexAutomaton: Sendable {
    /// A bound on the states, so that `a{1000}{1000}` goes to `Regex` rather than into a table of
    /// a million rows.
    static let maximumStates = 256

    /// 64-bit words in one set of states: the character states, then "matched".
    private let wordCount: Int
    private let matchedWord: Int
    private let matchedBit: UInt64
    /// Every set of states a match reads, `wordCount` words each, in one array so that a match
    /// pins one buffer: see the offsets below.
    private let table: [UInt64]
    private let classes: [ScalarClass]
    /// Whether no match can begin after the first scalar (every alternative starts with `^`): the
    /// search ends once no state is live.
    private let beginsOnlyAtStart: Bool

    // Where each part of `table` starts, in sets of states. For each ASCII scalar, the states that
    // admit it; the states that admit some scalar above U+007F (asked one by one); the states the
    // pattern's start reaches without consuming anything at the start of the input, then at a
    // later position (the search may begin anywhere), each first where the input goes on, then
    // where it ends; then for each state, the states reachable right after it consumed a scalar,
    // where the input goes on, then where it ended.
    private static let asciiRow = 0
    private static let nonASCIIRow = 128
    private static let initialAtStartRow = 129
    private static let initialLaterRow = 131
    private static let successorsRow = 133

    /// Compiles `source`, or returns nil when it is outside the subset this type runs. `source`
    /// must be a pattern `Regex` accepted through ``ECMARegexTranslator``: malformed ones are
    /// refused there, with their message.
    init?(_ source: String) {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let term = parser.parsePattern() else { return nil }
        var program = Program()
        guard let entry = program.compile(term, then: program.matchIndex) else { return nil }

        let stateCount = program.classes.count
        let words = (stateCount + 1 + 63) / 64
        wordCount = words
        matchedWord = stateCount / 64
        matchedBit = 1 << UInt64(stateCount % 64)
        classes = program.classes

        var table = [UInt64](repeating: 0, count: Self.initialAtStartRow * words)
        for (state, scalarClass) in program.classes.enumerated() {
            for scalar in 0..<128 where scalarClass.contains(UInt32(scalar)) {
                table[(Self.asciiRow + scalar) * words + state / 64] |= 1 << UInt64(state % 64)
            }
            if scalarClass.admitsNonASCII { table[Self.nonASCIIRow * words + state / 64] |= 1 << UInt64(state % 64) }
        }
        for atStart in [true, false] {
            for atEnd in [false, true] {
                table += program.closure(from: entry, atStart: atStart, atEnd: atEnd, words: words)
            }
        }
        beginsOnlyAtStart = table[(Self.initialLaterRow * words)...].allSatisfy { $0 == 0 }
        for next in program.nextOfState {
            table += program.closure(from: next, atStart: false, atEnd: false, words: words)
            table += program.closure(from: next, atStart: false, atEnd: true, words: words)
        }
        self.table = table
    }

    /// Whether some substring of `string` matches: ECMA-262's `RegExp.prototype.test`.
    func matches(_ string: String) -> Bool {
        if let found = string.utf8.withContiguousStorageIfAvailable({ matches(utf8: $0) }) { return found }
        var contiguous = string
        contiguous.makeContiguousUTF8()
        return contiguous.utf8.withContiguousStorageIfAvailable { matches(utf8: $0) } ?? false
    }

    private func matches(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        table.withUnsafeBufferPointer { table in
            wordCount == 1 ? matchesInOneWord(bytes, table) : matchesInWords(bytes, table)
        }
    }

    /// `matchesInWords` for a pattern of at most 63 states, which is most of them: the live
    /// states are one register.
    private func matchesInOneWord(_ bytes: UnsafeBufferPointer<UInt8>, _ table: UnsafeBufferPointer<UInt64>) -> Bool {
        let end = bytes.count
        var live = table[Self.initialAtStartRow + (end == 0 ? 1 : 0)]
        if live & matchedBit != 0 { return true }
        var position = 0
        while position < end {
            let scalar = Self.decode(bytes, at: &position)
            let atEnd = position == end ? 1 : 0
            var next = table[Self.initialLaterRow + atEnd]
            var states = live & table[scalar < 128 ? Self.asciiRow + Int(scalar) : Self.nonASCIIRow]
            while states != 0 {
                let state = states.trailingZeroBitCount
                states &= states - 1
                if scalar >= 128, !classes[state].contains(scalar) { continue }
                next |= table[Self.successorsRow + state * 2 + atEnd]
            }
            if next & matchedBit != 0 { return true }
            if beginsOnlyAtStart, next == 0 { return false }
            live = next
        }
        return false
    }

    /// Whether the search over `bytes` reaches "matched": the live states step over each scalar.
    private func matchesInWords(_ bytes: UnsafeBufferPointer<UInt8>, _ table: UnsafeBufferPointer<UInt64>) -> Bool {
        let words = wordCount
        let end = bytes.count
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { sets in
            var live = sets.baseAddress!
            var next = live + words
            let first = (Self.initialAtStartRow + (end == 0 ? 1 : 0)) * words
            for w in 0..<words { live[w] = table[first + w] }
            if live[matchedWord] & matchedBit != 0 { return true }

            var position = 0
            while position < end {
                let scalar = Self.decode(bytes, at: &position)
                let atEnd = position == end ? 1 : 0
                let later = (Self.initialLaterRow + atEnd) * words
                for w in 0..<words { next[w] = table[later + w] }
                let admitters = (scalar < 128 ? Self.asciiRow + Int(scalar) : Self.nonASCIIRow) * words
                for w in 0..<words {
                    var states = live[w] & table[admitters + w]
                    while states != 0 {
                        let state = w * 64 + states.trailingZeroBitCount
                        states &= states - 1
                        if scalar >= 128, !classes[state].contains(scalar) { continue }
                        let successors = (Self.successorsRow + state * 2 + atEnd) * words
                        for v in 0..<words { next[v] |= table[successors + v] }
                    }
                }
                if next[matchedWord] & matchedBit != 0 { return true }
                if beginsOnlyAtStart, !(0..<words).contains(where: { next[$0] != 0 }) { return false }
                swap(&live, &next)
            }
            return false
        }
    }

    /// The scalar whose UTF-8 form starts at `position` (Swift strings hold valid UTF-8), and
    /// `position` moved past it.
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt32 {
        let lead = UInt32(bytes[position])
        if lead < 0x80 {
            position += 1
            return lead
        }
        func continuation(_ k: Int) -> UInt32 { UInt32(bytes[position + k]) & 0x3F }
        let scalar: UInt32
        let length: Int
        if lead < 0xE0 {
            scalar = (lead & 0x1F) << 6 | continuation(1)
            length = 2
        } else if lead < 0xF0 {
            scalar = (lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2)
            length = 3
        } else {
            scalar = (lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3)
            length = 4
        }
        position += length
        return scalar
    }
}

// MARK: - Classes of scalars

/// A set of Unicode scalar values as sorted, disjoint, non-adjacent ranges.
struct ScalarClass: Sendable {
    private(set) var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    static let digits = ScalarClass([0x30...0x39])
    static let wordCharacters = ScalarClass([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// ECMA-262's WhiteSpace and LineTerminator: what `\s` matches.
    static let whitespace = ScalarClass([0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                         0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF])
    static let lineTerminators = ScalarClass([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029])

    /// Every scalar not in this class.
    var inverted: ScalarClass {
        var gaps: [ClosedRange<UInt32>] = []
        var from: UInt32 = 0
        for range in ranges {
            if range.lowerBound > from { gaps.append(from...(range.lowerBound - 1)) }
            from = range.upperBound + 1
        }
        if from <= 0x10FFFF { gaps.append(from...0x10FFFF) }
        return ScalarClass(gaps)
    }

    /// The one scalar of a class of one, such as a range's end.
    var singleScalar: UInt32? {
        ranges.count == 1 && ranges[0].lowerBound == ranges[0].upperBound ? ranges[0].lowerBound : nil
    }

    var admitsNonASCII: Bool { (ranges.last?.upperBound ?? 0) >= 0x80 }

    func contains(_ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar {
                low = middle + 1
            } else if ranges[middle].lowerBound > scalar {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}

// MARK: - Parsing

/// A pattern of the subset, parsed.
private indirect enum PatternTerm {
    case scalars(ScalarClass)
    case inputStart
    case inputEnd
    case sequence([PatternTerm])
    case alternatives([PatternTerm])
    case repetition(PatternTerm, minimum: Int, maximum: Int?)
}

/// Reads a pattern of the subset; nil as soon as it meets anything else.
private struct Parser {
    let scalars: [Unicode.Scalar]
    var i = 0

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < scalars.count ? scalars[i + offset] : nil }

    mutating func parsePattern() -> PatternTerm? {
        guard let term = parseAlternatives(), i == scalars.count else { return nil }
        return term
    }

    private mutating func parseAlternatives() -> PatternTerm? {
        var alternatives: [PatternTerm] = []
        while true {
            var items: [PatternTerm] = []
            while let c = peek(), c != "|", c != ")" {
                guard let atom = parseAtom(), let term = parseQuantifier(on: atom) else { return nil }
                items.append(term)
            }
            alternatives.append(.sequence(items))
            guard peek() == "|" else { break }
            i += 1
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    private mutating func parseAtom() -> PatternTerm? {
        let c = scalars[i]
        i += 1
        switch c {
        case "^": return .inputStart
        case "$": return .inputEnd
        case ".": return .scalars(ScalarClass.lineTerminators.inverted)
        case "(":
            if peek() == "?" {
                guard peek(1) == ":" else { return nil }
                i += 2
            }
            guard let inner = parseAlternatives(), peek() == ")" else { return nil }
            i += 1
            return inner
        case "[": return parseClass().map(PatternTerm.scalars)
        case "\\": return parseEscape(inClass: false).map(PatternTerm.scalars)
        case "*", "+", "?", "{", "}", "]": return nil
        default: return .scalars(ScalarClass([c.value...c.value]))
        }
    }

    /// The quantifier after `atom`, if any, applied to it.
    private mutating func parseQuantifier(on atom: PatternTerm) -> PatternTerm? {
        let bounds: (minimum: Int, maximum: Int?)
        switch peek() {
        case "*": bounds = (0, nil); i += 1
        case "+": bounds = (1, nil); i += 1
        case "?": bounds = (0, 1); i += 1
        case "{":
            i += 1
            guard let minimum = parseCount() else { return nil }
            var maximum: Int? = minimum
            if peek() == "," {
                i += 1
                maximum = peek() == "}" ? nil : parseCount()
                if let maximum, maximum < minimum { return nil }
                if maximum == nil, peek() != "}" { return nil }
            }
            guard peek() == "}" else { return nil }
            i += 1
            bounds = (minimum, maximum)
        default:
            return atom
        }
        switch atom {
        case .inputStart, .inputEnd: return nil
        default: break
        }
        if peek() == "?" { i += 1 }  // lazy: the same language
        if let next = peek(), "*+?{".unicodeScalars.contains(next) { return nil }
        return .repetition(atom, minimum: bounds.minimum, maximum: bounds.maximum)
    }

    /// Decimal digits, up to a count no state table could hold anyway.
    private mutating func parseCount() -> Int? {
        var value = 0
        var digits = 0
        while let c = peek(), ("0"..."9").contains(c) {
            value = value * 10 + Int(c.value - 48)
            digits += 1
            i += 1
            if value > ECMARegexAutomaton.maximumStates { return nil }
        }
        return digits > 0 ? value : nil
    }

    /// A class, `[` already read.
    private mutating func parseClass() -> ScalarClass? {
        let negated = peek() == "^"
        if negated { i += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while let c = peek(), c != "]" {
            if c == "-" {
                // A literal only as the first or last member: elsewhere Swift's syntax and
                // ECMA-262's part ways.
                guard first || peek(1) == "]" else { return nil }
                ranges.append(0x2D...0x2D)
                i += 1
                first = false
                continue
            }
            first = false
            guard let low = parseClassAtom() else { return nil }
            if peek() == "-", let after = peek(1), after != "]" {
                i += 1
                guard after != "-", let high = parseClassAtom(),
                      let lowScalar = low.singleScalar, let highScalar = high.singleScalar, lowScalar <= highScalar else { return nil }
                ranges.append(lowScalar...highScalar)
            } else {
                ranges += low.ranges
            }
        }
        guard peek() == "]" else { return nil }
        i += 1
        let members = ScalarClass(ranges)
        return negated ? members.inverted : members
    }

    private mutating func parseClassAtom() -> ScalarClass? {
        let c = scalars[i]
        i += 1
        if c == "\\" { return parseEscape(inClass: true) }
        return ScalarClass([c.value...c.value])
    }

    /// The escape after a backslash (already read).
    private mutating func parseEscape(inClass: Bool) -> ScalarClass? {
        guard let c = peek() else { return nil }
        i += 1
        func scalar(_ value: UInt32) -> ScalarClass { ScalarClass([value...value]) }
        switch c {
        case "d": return .digits
        case "D": return ScalarClass.digits.inverted
        case "w": return .wordCharacters
        case "W": return ScalarClass.wordCharacters.inverted
        case "s": return .whitespace
        case "S": return ScalarClass.whitespace.inverted
        case "t": return scalar(0x09)
        case "n": return scalar(0x0A)
        case "v": return scalar(0x0B)
        case "f": return scalar(0x0C)
        case "r": return scalar(0x0D)
        case "b" where inClass: return scalar(0x08)
        case "0":
            if let next = peek(), ("0"..."9").contains(next) { return nil }
            return scalar(0)
        case "x": return ECMARegexTranslator.hex(scalars, &i, count: 2).map(scalar)
        case "u":
            guard let value = ECMARegexTranslator.hex(scalars, &i, count: 4), !(0xD800...0xDFFF).contains(value) else { return nil }
            return scalar(value)
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return scalar(c.value)
        case "-" where inClass:
            return scalar(c.value)
        default:
            return nil
        }
    }
}

// MARK: - Compiling

/// A Thompson program for a parsed pattern, built from the end backwards, and the closures over
/// its instructions that do not consume input: what the automaton's tables are made of.
private struct Program {
    enum Instruction {
        /// The state that matches one scalar of its class, then goes on at `next`.
        case consume(state: Int, next: Int)
        case split(Int, Int)
        case assertInputStart(next: Int)
        case assertInputEnd(next: Int)
        case match
    }

    /// A bound on the instructions besides the states: assertions and splits repeated by counts.
    static let maximumInstructions = 8 * ECMARegexAutomaton.maximumStates

    let matchIndex = 0
    private(set) var instructions: [Instruction] = [.match]
    /// Each state's class and where it goes on, by state number.
    private(set) var classes: [ScalarClass] = []
    private(set) var nextOfState: [Int] = []

    /// The entry of `term`'s instructions, which go on at `next`; nil past the bounds.
    mutating func compile(_ term: PatternTerm, then next: Int) -> Int? {
        switch term {
        case .scalars(let scalarClass):
            guard classes.count < ECMARegexAutomaton.maximumStates else { return nil }
            classes.append(scalarClass)
            nextOfState.append(next)
            return append(.consume(state: classes.count - 1, next: next))
        case .inputStart:
            return append(.assertInputStart(next: next))
        case .inputEnd:
            return append(.assertInputEnd(next: next))
        case .sequence(let items):
            var entry = next
            for item in items.reversed() {
                guard let start = compile(item, then: entry) else { return nil }
                entry = start
            }
            return entry
        case .alternatives(let alternatives):
            guard var entry = compile(alternatives[alternatives.count - 1], then: next) else { return nil }
            for alternative in alternatives.dropLast().reversed() {
                guard let start = compile(alternative, then: next), let split = append(.split(start, entry)) else { return nil }
                entry = split
            }
            return entry
        case .repetition(let body, let minimum, let maximum):
            var entry = next
            if let maximum {
                // x{2,4} is x x x? x?.
                for _ in minimum..<maximum {
                    guard let start = compile(body, then: entry), let split = append(.split(start, entry)) else { return nil }
                    entry = split
                }
            } else {
                guard let loop = append(.split(next, next)), let start = compile(body, then: loop) else { return nil }
                instructions[loop] = .split(start, next)
                entry = loop
            }
            for _ in 0..<minimum {
                guard let start = compile(body, then: entry) else { return nil }
                entry = start
            }
            return entry
        }
    }

    private mutating func append(_ instruction: Instruction) -> Int? {
        guard instructions.count < Self.maximumInstructions else { return nil }
        instructions.append(instruction)
        return instructions.count - 1
    }

    /// The states (and "matched", numbered after them) reachable from `start` without consuming a
    /// scalar, at a position that is or is not the input's start and end.
    func closure(from start: Int, atStart: Bool, atEnd: Bool, words: Int) -> [UInt64] {
        var reached = [UInt64](repeating: 0, count: words)
        func add(_ state: Int) { reached[state / 64] |= 1 << UInt64(state % 64) }
        var visited = [Bool](repeating: false, count: instructions.count)
        var pending = [start]
        while let index = pending.popLast() {
            guard !visited[index] else { continue }
            visited[index] = true
            switch instructions[index] {
            case .consume(let state, _): add(state)
            case .match: add(classes.count)
            case .split(let first, let second): pending += [second, first]
            case .assertInputStart(let next): if atStart { pending.append(next) }
            case .assertInputEnd(let next): if atEnd { pending.append(next) }
            }
        }
        return reached
    }
}
