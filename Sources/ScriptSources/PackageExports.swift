import JSON

/// A package's `"exports"` as Node reads it: a target string, a conditions object, an array of
/// fallbacks, or a map from subpaths (`"."`, `"./sub"`, patterns such as `"./features/*.js"`) to
/// any of those, nested at will; `null` marks a subpath as not exported.
struct PackageExports {
    let manifest: PackageManifest
    let exports: JSONValue
    /// The conditions matched, in no particular order: a conditions object is read in its own key
    /// order and its first key in this set (or `"default"`) wins.
    let conditions: [String]
    /// "imported from /app/main.js", for messages.
    let importer: String

    /// What a target resolves to: a file, `null` (not exported), or no condition matched.
    private enum Outcome {
        case file(String)
        case excluded
        case unmatched
    }

    /// The absolute path `subpath` is exported as; whether a file is there is the caller's to see.
    /// Throws `ERR_PACKAGE_PATH_NOT_EXPORTED`, `ERR_INVALID_PACKAGE_TARGET` or
    /// `ERR_INVALID_PACKAGE_CONFIG` (an object mixing subpath keys and condition keys).
    func path(of subpath: String) throws(ModuleResolutionError) -> String {
        var offered: [String] = []
        let found: Outcome
        let map = try subpathMap()
        if let exact = map.first(where: { $0.key == subpath && !$0.key.contains("*") }) {
            found = try resolve(exact.value, match: nil, offered: &offered)
        } else if let pattern = bestPattern(for: subpath, in: map) {
            found = try resolve(pattern.target, match: pattern.match, offered: &offered)
        } else {
            found = .excluded
        }
        guard case .file(let path) = found else {
            let unmatched = offered.filter { $0 != "default" && !conditions.contains($0) }
            let because = unmatched.isEmpty ? "" : " for the conditions \((conditions + ["default"]).joined(separator: ", "))"
                + " (it offers \(unmatched.joined(separator: ", ")); HybridHost matches neither \"node\" nor \"browser\")"
            throw ModuleResolutionError(.packagePathNotExported,
                                        "Package subpath '\(subpath)' is not defined by \"exports\" in \(manifest.path)\(because), \(importer)")
        }
        return path
    }

    /// The map's entries: `"exports"` itself under `"."` when it is not a subpath map.
    private func subpathMap() throws(ModuleResolutionError) -> [JSONObject.Member] {
        guard case .object(let object) = exports else { return [(".", exports)] }
        let subpaths = object.keys.filter { $0.hasPrefix(".") }.count
        if subpaths == 0 { return [(".", exports)] }
        guard subpaths == object.count else {
            throw ModuleResolutionError(.invalidPackageConfig, "Invalid package config \(manifest.path): \"exports\" cannot mix subpaths "
                                        + "(keys starting with '.') and conditions, \(importer)")
        }
        return object.members
    }

    /// The pattern key (one `*`) matching `subpath` with the longest part before its `*`, then the
    /// longest key, as Node orders them; `match` is what the `*` stands for.
    private func bestPattern(for subpath: String, in map: [JSONObject.Member]) -> (target: JSONValue, match: String)? {
        var best: (key: String, base: Int, target: JSONValue, match: String)?
        for (key, target) in map {
            let parts = key.split(separator: "*", omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let (base, trailer) = (parts[0], parts[1])
            guard subpath.hasPrefix(base), subpath.hasSuffix(trailer), subpath.utf8.count >= key.utf8.count else { continue }
            if let best, best.base > base.utf8.count || (best.base == base.utf8.count && best.key.utf8.count >= key.utf8.count) { continue }
            let match = String(subpath.dropFirst(base.count).dropLast(trailer.count))
            best = (key, base.utf8.count, target, match)
        }
        return best.map { ($0.target, $0.match) }
    }

    private func resolve(_ target: JSONValue, match: String?, offered: inout [String]) throws(ModuleResolutionError) -> Outcome {
        switch target {
        case .string(let string):
            return .file(try file(for: string, match: match))
        case .object(let object):
            for (condition, value) in object {
                offered.append(condition)
                guard condition == "default" || conditions.contains(condition) else { continue }
                let outcome = try resolve(value, match: match, offered: &offered)
                if case .unmatched = outcome { continue }
                return outcome
            }
            return .unmatched
        case .array(let fallbacks):
            // The first valid target; an invalid one is passed over, the last failure kept.
            var last: Result<Outcome, ModuleResolutionError> = .success(fallbacks.isEmpty ? .excluded : .unmatched)
            for fallback in fallbacks {
                do {
                    let outcome = try resolve(fallback, match: match, offered: &offered)
                    if case .file = outcome { return outcome }
                    if case .excluded = outcome { last = .success(.excluded) }
                } catch where error.code == .invalidPackageTarget {
                    last = .failure(error)
                }
            }
            return try last.get()
        case .null:
            return .excluded
        default:
            throw invalidTarget("\(target)")
        }
    }

    /// A target string made a path: it must start with `./` and stay in the package folder.
    private func file(for target: String, match: String?) throws(ModuleResolutionError) -> String {
        guard target.hasPrefix("./"), Self.staysInside(target.dropFirst(2)) else { throw invalidTarget(target) }
        var resolved = target
        if let match {
            guard Self.staysInside(Substring(match)) else {
                throw ModuleResolutionError(.invalidModuleSpecifier, "'\(match)' is not a valid match for a pattern of \"exports\" in \(manifest.path), \(importer)")
            }
            resolved = resolved.replacing("*", with: match)
        }
        return (manifest.folder == "/" ? "" : manifest.folder) + resolved.dropFirst()
    }

    /// Whether a relative path has no empty, `.`, `..` or `node_modules` segment.
    private static func staysInside(_ path: Substring) -> Bool {
        !path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            segment.isEmpty || segment == "." || segment == ".." || segment.lowercased() == "node_modules"
        }
    }

    private func invalidTarget(_ target: String) -> ModuleResolutionError {
        ModuleResolutionError(.invalidPackageTarget, "Invalid \"exports\" target \(target) in \(manifest.path): expected a path starting with './'"
                              + " inside the package, \(importer)")
    }
}
