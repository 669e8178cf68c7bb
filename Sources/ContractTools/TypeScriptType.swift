import JSON

/// A TypeScript type expression, as ``TypeScriptDeclarations`` builds it from a JSON Schema.
///
/// A small tree rather than text, so that unions and intersections can be simplified
/// (`string | unknown` is `unknown`) and parentheses written only where precedence needs them.
/// Use ``union(_:)`` and ``intersection(_:)`` to combine types: they flatten, drop what adds
/// nothing and keep the first of duplicates, so the text stays short and deterministic.
///
/// ```swift
/// TypeScriptType.array(.union([.keyword("string"), .keyword("null")])).rendered()
/// // "(string | null)[]"
/// ```
indirect enum TypeScriptType: Hashable, Sendable {
    /// `string`, `number`, `boolean`, `null`, `unknown`, `never`.
    case keyword(String)
    /// A literal type's source text: `"linux"`, `16`, `true`.
    case literal(String)
    /// A declared type: `DeviceInfoResult`, `Uint8Array`.
    case named(String)
    case array(TypeScriptType)
    /// `[A, B?, ...C[]]`; `rest` is the element type of the trailing rest element.
    case tuple([TupleElement], rest: TypeScriptType?)
    case object(ObjectShape)
    case unionOf([TypeScriptType])
    case intersectionOf([TypeScriptType])

    struct TupleElement: Hashable, Sendable {
        var type: TypeScriptType
        var isOptional: Bool
    }

    /// An object type's members: properties in the schema's order, then an index signature.
    struct ObjectShape: Hashable, Sendable {
        var properties: [Property]
        /// The type of `[key: string]`, when other keys are allowed or there are no properties.
        var indexSignature: TypeScriptType?
    }

    struct Property: Hashable, Sendable {
        var name: String
        var type: TypeScriptType
        var isOptional: Bool
        /// The doc comment's lines, without `/**` and `*/`.
        var documentation: [String]
    }

    static let unknown = TypeScriptType.keyword("unknown")
    static let never = TypeScriptType.keyword("never")

    // MARK: Combining

    /// `A | B | ...`, flattened: `never` members dropped, `unknown` absorbing the rest.
    static func union(_ types: [TypeScriptType]) -> TypeScriptType {
        var members: [TypeScriptType] = []
        for type in types {
            let flattened: [TypeScriptType] = if case .unionOf(let inner) = type { inner } else { [type] }
            for member in flattened where member != .never && !members.contains(member) {
                if member == .unknown { return .unknown }
                members.append(member)
            }
        }
        switch members.count {
        case 0: return .never
        case 1: return members[0]
        default: return .unionOf(members)
        }
    }

    /// `A & B & ...`, flattened: `unknown` members dropped, `never` absorbing the rest.
    static func intersection(_ types: [TypeScriptType]) -> TypeScriptType {
        var members: [TypeScriptType] = []
        for type in types {
            let flattened: [TypeScriptType] = if case .intersectionOf(let inner) = type { inner } else { [type] }
            for member in flattened where member != .unknown && !members.contains(member) {
                if member == .never { return .never }
                members.append(member)
            }
        }
        switch members.count {
        case 0: return .unknown
        case 1: return members[0]
        default: return .intersectionOf(members)
        }
    }

    // MARK: Rendering

    /// The type's source text. Object types span several lines: the first line starts at the
    /// caller's position, the later ones are indented for a type that starts at depth `depth`.
    func rendered(depth: Int = 0) -> String {
        switch self {
        case .keyword(let text), .literal(let text), .named(let text):
            return text
        case .array(let element):
            return element.rendered(depth: depth, parenthesizingBelow: .postfix) + "[]"
        case .tuple(let elements, let rest):
            var parts = elements.map { element in
                element.type.rendered(depth: depth, parenthesizingBelow: element.isOptional ? .postfix : .union)
                    + (element.isOptional ? "?" : "")
            }
            if let rest { parts.append("..." + TypeScriptType.array(rest).rendered(depth: depth)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .object(let shape):
            return shape.rendered(depth: depth, compact: true)
        case .unionOf(let members):
            return members.map { $0.rendered(depth: depth, parenthesizingBelow: .union) }.joined(separator: " | ")
        case .intersectionOf(let members):
            return members.map { $0.rendered(depth: depth, parenthesizingBelow: .intersection) }.joined(separator: " & ")
        }
    }

    /// How tightly a type binds, loosest first: `A | B & C[]` is `A | (B & (C[]))`.
    private enum Precedence: Int, Comparable {
        case union, intersection, postfix
        static func < (lhs: Precedence, rhs: Precedence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var precedence: Precedence {
        switch self {
        case .unionOf: .union
        case .intersectionOf: .intersection
        default: .postfix
        }
    }

    private func rendered(depth: Int, parenthesizingBelow required: Precedence) -> String {
        let text = rendered(depth: depth)
        return precedence < required ? "(" + text + ")" : text
    }

    /// The width doc comments are wrapped to.
    static let lineWidth = 100

    /// A `/** ... */` comment for `text`, indented by `indent`: one line when it fits, else one
    /// line per line of text, prose wrapped to ``lineWidth`` (indented lines and fenced code as
    /// they are). Returns no lines when there is no text.
    static func docComment(_ text: [String], indent: String) -> [String] {
        let width = max(40, lineWidth - indent.count - 3)
        var lines: [String] = []
        var inFence = false
        for line in text.flatMap({ $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) }) {
            // `*/` would end the comment early.
            let line = String(line).replacing("*/", with: "*\\/")
            let isFence = line.hasPrefix("```")
            if isFence { inFence.toggle() }
            if isFence || inFence || line.first?.isWhitespace == true || line.count <= width {
                lines.append(line)
            } else {
                lines += wrapped(line, width: width)
            }
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        if lines.isEmpty { return [] }
        if lines.count == 1, indent.count + lines[0].count + 7 <= lineWidth { return [indent + "/** " + lines[0] + " */"] }
        return [indent + "/**"] + lines.map { $0.isEmpty ? indent + " *" : indent + " * " + $0 } + [indent + " */"]
    }

    /// `line`'s words, greedily filled into lines of at most `width` characters; a longer word
    /// gets a line of its own. A word that would read as markup at the start of a line (a JSDoc
    /// `@tag`, a list item, a heading) stays on the line before, however long that makes it.
    private static func wrapped(_ line: String, width: Int) -> [String] {
        func readsAsMarkup(_ word: Substring) -> Bool {
            guard let first = word.first else { return false }
            return "@#>".contains(first) || ["-", "+", "*"].contains(word)
                || (word.count > 1 && ".)".contains(word.last!) && word.dropLast().allSatisfy(\.isWholeNumber))
        }
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width || readsAsMarkup(word) {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `name` as a property key: bare when it is an identifier, else a quoted string.
    static func propertyKey(_ name: String) -> String {
        var scalars = name.unicodeScalars.makeIterator()
        func isStart(_ s: Unicode.Scalar) -> Bool { s == "_" || s == "$" || ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
        guard let first = scalars.next(), isStart(first) else { return quoted(name) }
        while let s = scalars.next() {
            guard isStart(s) || ("0"..."9").contains(s) else { return quoted(name) }
        }
        return name
    }

    /// A string literal: JSON's escapes are TypeScript's too.
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONWriter.writeString(text, into: &out)
        return out
    }
}

extension TypeScriptType.ObjectShape {
    /// The object type's source text. `compact` puts an object with nothing but a one-line index
    /// signature on one line (`{ [key: string]: unknown }`), as an inline type reads best.
    func rendered(depth: Int, compact: Bool) -> String {
        if compact, properties.isEmpty, let indexSignature {
            let text = indexSignature.rendered(depth: depth)
            if !text.contains("\n") { return "{ [key: string]: " + text + " }" }
        }
        let inner = String(repeating: "  ", count: depth + 1)
        var lines: [String] = []
        for property in properties {
            lines += TypeScriptType.docComment(property.documentation, indent: inner)
            lines.append(inner + TypeScriptType.propertyKey(property.name) + (property.isOptional ? "?" : "") + ": "
                + property.type.rendered(depth: depth + 1) + ";")
        }
        if let indexSignature {
            lines.append(inner + "[key: string]: " + indexSignature.rendered(depth: depth + 1) + ";")
        }
        guard !lines.isEmpty else { return "{}" }
        return "{\n" + lines.joined(separator: "\n") + "\n" + String(repeating: "  ", count: depth) + "}"
    }
}
