/// A module file as the loader reads it: its real path, its text (``SystemIO/FileSystem/text(atPath:)``)
/// and the format it is transformed as. What ``ModuleTransformer/transformAll(_:)`` takes: the
/// cache key is made of exactly these, so a file read here hits the cache when the loader reads it.
public struct ModuleSourceFile: Sendable, Equatable {
    public let path: String
    public let source: String
    public let format: ModuleFormat

    public init(path: String, source: String, format: ModuleFormat) {
        self.path = path
        self.source = source
        self.format = format
    }
}
