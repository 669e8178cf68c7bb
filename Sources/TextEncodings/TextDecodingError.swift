/// A fatal decoder met bytes that are not valid in its encoding.
public struct TextDecodingError: Error, Equatable, CustomStringConvertible {
    public let encoding: TextEncoding

    public init(encoding: TextEncoding) { self.encoding = encoding }

    /// The message node gives (`ERR_ENCODING_INVALID_ENCODED_DATA`), with the encoding's name as
    /// TextDecoder's `encoding` shows it.
    public var description: String { "The encoded data was not valid for encoding \(encoding.name.lowercased())" }
}
