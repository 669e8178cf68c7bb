import SystemIO

/// Many files through one esbuild run, for a cold start: esbuild takes many entry points, and
/// spawning it (11–13 ms) costs more than transforming a small module.
///
/// What it writes is cached under the key a single-file transform (stdin and `--sourcefile`) would
/// use, so it must be that transform's output byte for byte. Three things would differ between
/// esbuild's two modes, and are kept equal:
/// - Reading files, esbuild honours the nearest `package.json` `"type"` (an `.ts` in a
///   `"module"` package then imports in node mode) and `tsconfig.json`, which it never reads for
///   stdin. So the files are copied into a scratch folder whose only `package.json` is `{}`, and
///   the single transform's compiler options are given as a file (`--tsconfig`). The copy is also
///   what keeps the cache honest: esbuild transforms the very text that was hashed, even if the
///   file changes meanwhile.
/// - The base name names a module's variables (`cart_exports`, `cart_default`): each copy keeps
///   its name, under its own absolute path (`<scratch>/src/app/cart.ts`), so no two collide.
/// - The map's `sources` is relative to the output file; it is set back to the path, as
///   `--sourcefile` writes it. A path esbuild escapes in JSON is left to the single transform.
///
/// Files are run in groups of one extension (the output is `<name>.js`, which `a.ts` and `a.mts`
/// would share) and one format (the banner). A group esbuild refuses is tried once more without
/// the files its errors name (top-level await, which CommonJS output cannot have; a syntax
/// error); whatever is still refused is left out, and the loader transforms it alone when it
/// needs it, reporting the error as it always has.
struct TransformBatch {
    /// The extensions whose loader esbuild infers as the single transform names it (`ts` for the
    /// TypeScript ones, `js` for the others).
    static let extensions = [".ts", ".mts", ".cts", ".mjs", ".js"]

    let esbuild: String
    /// The arguments for a group of `format`, besides the entry points and folders.
    let options: (ModuleFormat) -> [String]

    /// The output of each file esbuild transformed, by path, made a ``CompiledSource`` by `shape`
    /// (the single transform's own post-processing).
    func transform(_ files: [ModuleSourceFile], shape: (String, ModuleFormat) -> CompiledSource) -> [String: CompiledSource] {
        guard let scratch = FileSystem.makeTemporaryFolder(prefix: "hybrid-transform") else { return [:] }
        defer { FileSystem.removeTree(scratch) }
        var copied: [ModuleSourceFile] = []
        var folders: Set<String> = []
        do {
            try FileSystem.write("{}", to: scratch + "/package.json")
            for file in files where file.path.hasPrefix("/") && Self.extension(of: file.path) != nil {
                let copy = scratch + "/src" + file.path
                let folder = FileSystem.directory(of: copy)
                if folders.insert(folder).inserted { try FileSystem.createDirectories(folder) }
                try FileSystem.write(file.source, to: copy)
                copied.append(file)
            }
        } catch {
            return [:]
        }
        let groups = Dictionary(grouping: copied) { "\(Self.extension(of: $0.path) ?? "")/\($0.format.rawValue)" }
        var results: [String: CompiledSource] = [:]
        for (index, group) in groups.values.enumerated() {
            let output = "\(scratch)/out-\(index)"
            var pending = group
            for _ in 0..<2 where !pending.isEmpty {
                guard let refused = run(pending, scratch: scratch, output: output) else {
                    for file in pending {
                        if let compiled = compiledOutput(of: file, in: output, shape: shape) { results[file.path] = compiled }
                    }
                    break
                }
                if refused.isEmpty { break }
                pending.removeAll { refused.contains($0.path) }
            }
        }
        return results
    }

    /// One esbuild run: nil when it succeeded, else the paths its errors name (empty when it names
    /// none of them, or could not run).
    private func run(_ files: [ModuleSourceFile], scratch: String, output: String) -> Set<String>? {
        let arguments = options(files[0].format) + ["--log-limit=0", "--outdir=" + output, "--outbase=" + scratch + "/src"]
            + files.map { scratch + "/src" + $0.path }
        guard let result = try? ChildProcess.run(esbuild, arguments) else { return [] }
        if result.status == 0 { return nil }
        // esbuild names a file relative to our working folder, ending `src/<path>:line:column:`.
        let errors = String(decoding: result.errorOutput, as: UTF8.self)
        return Set(files.lazy.map(\.path).filter { errors.contains("src" + $0 + ":") })
    }

    private func compiledOutput(of file: ModuleSourceFile, in output: String, shape: (String, ModuleFormat) -> CompiledSource) -> CompiledSource? {
        guard let ext = Self.extension(of: file.path),
              let bytes = try? FileSystem.bytes(atPath: output + file.path.dropLast(ext.count) + ".js") else { return nil }
        let compiled = shape(String(decoding: bytes, as: UTF8.self), file.format)
        // The output is `<output>/<folders>/name.js`: one `../` per folder of the path, and one
        // out of `<output>`, lead back to the scratch folder.
        let relative = String(repeating: "../", count: file.path.split(separator: "/").count) + "src" + file.path
        guard var map = compiled.sourceMap, let sources = map.range(of: "\"sources\": [\"\(relative)\"]") else { return nil }
        map.replaceSubrange(sources, with: "\"sources\": [\"\(file.path)\"]")
        return CompiledSource(code: compiled.code, sourceMap: map, format: compiled.format, topLevelAwait: false)
    }

    /// The file's extension among ``extensions``; nil for any other (`.d.ts` included: a
    /// declaration is never loaded).
    static func `extension`(of path: String) -> String? {
        guard !path.hasSuffix(".d.ts"), !path.hasSuffix(".d.mts"), !path.hasSuffix(".d.cts") else { return nil }
        return extensions.first { path.hasSuffix($0) }
    }
}
