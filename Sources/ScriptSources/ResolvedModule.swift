/// The file a module request names, as a real path (symbolic links followed, so one file is one
/// module however it was reached), and how that file is evaluated.
public struct ResolvedModule: Sendable, Equatable {
    public let path: String
    public let format: ModuleFormat

    public init(path: String, format: ModuleFormat) {
        self.path = path
        self.format = format
    }
}
