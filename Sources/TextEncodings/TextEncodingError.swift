/// A fatal encoder met a code point its encoding cannot represent.
public struct TextEncodingError: Error, Equatable, CustomStringConvertible {
    public let encoding: TextEncoding
    public let codePoint: UInt32

    public init(encoding: TextEncoding, codePoint: UInt32) {
        self.encoding = encoding
        self.codePoint = codePoint
    }

    public var description: String {
        "U+\(String(codePoint, radix: 16, uppercase: true).leftPadded(to: 4)) cannot be encoded in \(encoding.name)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
