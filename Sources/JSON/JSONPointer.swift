/// RFC 6901 JSON Pointers, the `path` of every bridge error (`/records/3/title`).
public enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`.
    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingAll("~", with: "~0").replacingAll("/", with: "~1")
    }

    /// Unescapes one reference token.
    public static func unescape(_ token: String) -> String {
        guard token.contains("~") else { return token }
        return token.replacingAll("~1", with: "/").replacingAll("~0", with: "~")
    }

    /// `parent` extended by one object key.
    public static func appending(_ parent: String, key: String) -> String { parent + "/" + escape(key) }

    /// `parent` extended by one array index.
    public static func appending(_ parent: String, index: Int) -> String { parent + "/" + String(index) }

    /// The reference tokens of `pointer`; nil when it is neither empty nor starts with `/`.
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { unescape(String($0)) }
    }

    /// An array index as RFC 6901 writes it: `0`, or decimal digits without a leading zero (`01`,
    /// `+1`, `-1` and ` 1` are none); nil otherwise.
    public static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              token == "0" || !token.hasPrefix("0") else { return nil }
        return Int(token)
    }

    /// The value `pointer` designates inside `root`, or nil when there is none.
    public static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = root
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = arrayIndex(token), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        let t = Array(target.utf8)
        let u = self.utf8
        guard t.count <= u.count else { return nil }
        var i = u.startIndex
        while i != u.endIndex {
            var j = i
            var k = 0
            while k < t.count, j != u.endIndex, u[j] == t[k] {
                j = u.index(after: j)
                k += 1
            }
            if k == t.count { return i..<j }
            i = u.index(after: i)
        }
        return nil
    }
}
