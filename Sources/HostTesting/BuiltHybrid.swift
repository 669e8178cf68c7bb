import Foundation

/// The `hybrid` executable built beside the running test bundle, for tests that run it as a user
/// does (a child killed mid-write, the patch commands, a real terminal).
public enum BuiltHybrid {
    /// `.build*/debug/hybrid` next to the bundle, or one folder up where the bundle sits deeper;
    /// nil when neither is there (the tests that need it are then skipped).
    public static var path: String? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("hybrid").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
