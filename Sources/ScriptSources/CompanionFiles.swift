import SystemIO

/// The module files a start will likely transform after the first one that misses the cache: every
/// file under its app's folder that the loader would hand to esbuild, read as the loader reads
/// it, so that one esbuild run (``ModuleTransformer/transformAll(_:)``) does what a spawn per module
/// did on a cold start (`hybrid-bench modules`).
///
/// The app's folder is that of the nearest `package.json`, or the file's own folder when there is
/// none (or it is at `/`); each folder is scanned once per run. Left out: `node_modules` and names
/// starting with `.` (version control, editors, build output), symbolic links (the loader names
/// files by real path, so a linked file would be cached under a path it never asks for), `.d.ts`
/// declarations, the cache folder, and anything past the bounds: such a file is transformed on
/// its own when it is loaded, as before. A `.js` file is taken as an ES module when its package
/// says so, or when it has `import`/`export` statements (the loader's syntax detection).
///
/// ```swift
/// let companions = Locked(CompanionFiles(resolver: ModuleResolver(), skipping: cacheDirectory))
/// let transformer = ModuleTransformer(cacheDirectory: cacheDirectory, companions: { path in companions.withLock { $0.files(around: path) } })
/// ```
///
/// Not thread-safe, as the resolver it reads formats with.
public final class CompanionFiles {
    /// Files, bytes of source and folder entries looked at: a batch of an app's own modules, not
    /// of a home folder that happens to hold a `package.json`.
    public static let maximumFiles = 2_000
    public static let maximumBytes = 16 << 20
    public static let maximumEntries = 20_000

    private let resolver: ModuleResolver
    private let skipped: String?
    private var scanned: Set<String> = []

    /// `skipping`: a folder never to look into (the transform cache, which may sit in the app).
    public init(resolver: ModuleResolver, skipping: String?) {
        self.resolver = resolver
        skipped = skipping
    }

    /// The app folder's module files that need a transform, `path` among them; empty when that
    /// folder was scanned already.
    public func files(around path: String) -> [ModuleSourceFile] {
        let folder = FileSystem.directory(of: path)
        let package = resolver.packageFolder(containing: folder)
        let root = package == nil || package == "/" ? folder : package!
        guard scanned.insert(root).inserted else { return [] }
        var found: [ModuleSourceFile] = []
        var bytes = 0, entries = 0
        var folders = [root]
        while let current = folders.popLast() {
            for name in FileSystem.entries(of: current) where !name.hasPrefix(".") && name != "node_modules" {
                entries += 1
                guard entries <= Self.maximumEntries, found.count < Self.maximumFiles, bytes < Self.maximumBytes else { return found }
                let child = current + "/" + name
                guard child != skipped, FileSystem.linkTarget(child) == nil else { continue }
                if FileSystem.kind(of: child) == .directory {
                    folders.append(child)
                } else if let size = FileSystem.stamp(child)?.size, bytes + size <= Self.maximumBytes, let file = moduleFile(child) {
                    // The size before reading: one large bundle must not be read only to be too much.
                    found.append(file)
                    bytes += size
                }
            }
        }
        return found
    }

    /// The file as the loader would transform it; nil when it would not (plain CommonJS, JSON, an
    /// extension the batch does not take, a file or package.json that cannot be read).
    private func moduleFile(_ path: String) -> ModuleSourceFile? {
        guard TransformBatch.extension(of: path) != nil, let format = try? resolver.format(of: path),
              let source = try? FileSystem.text(atPath: path) else { return nil }
        if ModuleTransformer.needsTransform(path: path, format: format) {
            return ModuleSourceFile(path: path, source: source, format: format)
        }
        return ModuleFormat.hasModuleSyntax(source) ? ModuleSourceFile(path: path, source: source, format: .module) : nil
    }
}
