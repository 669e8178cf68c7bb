import JSON

/// A package's `"exports"` or `"imports"` as Node reads them (one algorithm serves both). Exports:
/// a target string, a conditions object, an array of fallbacks, or a map from subpaths (`"."`,
/// `"./sub"`, patterns such as `"./features/*.js"`) to any of those, nested at will; `null` marks a
/// subpath as not exported. Imports: a map from `#` names (`"#config"`, `"#internal/*"`) to the
/// same, whose targets may also name another package (`"#styles": "ansi-styles"`).
struct PackageTargetMap {
    enum Field: String {
        case exports
        case imports
    }

    /// Where a key leads: a file in the package (which may not exist), or a request for a package.
    enum Target: Equatable {
        case file(String)
        case package(String)
    }

    let manifest: PackageManifest
    let field: Field
    let map: JSONValue
    /// The conditions matched, in no particular order: a conditions object is read in its own key
    /// order and its first key in this set (or `"default"`) wins.
    let conditions: [String]
    /// "imported from /app/main.js", for messages.
    let importer: String

    /// What a target resolves to: a target, `null` (not exported), or no condition matched.
    private enum Outcome {
        case target(Target)
        case excluded
        case unmatched
    }

    /// Where `key` (a subpath such as `"."` or `"./sub"`, or an import such as `"#config"`) leads.
    /// Throws `ERR_PACKAGE_PATH_NOT_EXPORTED` or `ERR_PACKAGE_IMPORT_NOT_DEFINED`,
    /// `ERR_INVALID_PACKAGE_TARGET`, or `ERR_INVALID_PACKAGE_CONFIG` (exports mixing subpath keys and
    /// condition keys, imports that are not an object).
    func target(of key: String) throws(ModuleResolutionError) -> Target {
        var offered: [String] = []
        let found: Outcome
        let entries = try keyedEntries()
        if let exact = entries.first(where: { $0.key == key && !$0.key.contains("*") }) {
            found = try resolve(exact.value, match: nil, offered: &offered)
        } else if let pattern = bestPattern(for: key, in: entries) {
            found = try resolve(pattern.target, match: pattern.match, offered: &offered)
        } else {
            found = .excluded
        }
        guard case .target(let target) = found else {
            let unmatched = offered.filter { $0 != "default" && !conditions.contains($0) }
            let because = unmatched.isEmpty ? "" : " for the conditions \((conditions + ["default"]).joined(separator: ", "))"
                + " (it offers \(unmatched.joined(separator: ", ")); HybridHost matches neither \"node\" nor \"browser\")"
            switch field {
            case .exports:
                throw ModuleResolutionError(.packagePathNotExported,
                                            "Package subpath '\(key)' is not defined by \"exports\" in \(manifest.path)\(because), \(importer)")
            case .imports:
                throw ModuleResolutionError(.packageImportNotDefined,
                                            "Package import specifier '\(key)' is not defined by \"imports\" in \(manifest.path)\(because), \(importer)")
            }
        }
        return target
    }

    /// The map's entries: `"exports"` itself under `"."` when it is not a subpath map.
    private func keyedEntries() throws(ModuleResolutionError) -> [JSONObject.Member] {
        guard case .object(let object) = map else {
            if field == .imports { throw invalidConfig("\"imports\" must be an object") }
            return [(".", map)]
        }
        if field == .imports { return object.members }
        let subpaths = object.keys.filter { $0.hasPrefix(".") }.count
        if subpaths == 0 { return [(".", map)] }
        guard subpaths == object.count else { throw invalidConfig("\"exports\" cannot mix subpaths (keys starting with '.') and conditions") }
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
            return .target(try resolvedTarget(string, match: match))
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
                    if case .target = outcome { return outcome }
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

    /// A target string made a path: it must start with `./` and stay in the package folder; or, in
    /// imports, a package name.
    private func resolvedTarget(_ target: String, match: String?) throws(ModuleResolutionError) -> Target {
        let substituted = match.map { target.replacing("*", with: $0) } ?? target
        // Not another `#name`: an import that names an import could name itself.
        let relative = target.hasPrefix("./") || target.hasPrefix("../") || target.hasPrefix("/") || target.hasPrefix("#")
        if field == .imports, !relative, !target.contains(":") || target.hasPrefix("node:") { return .package(substituted) }
        guard target.hasPrefix("./"), Self.staysInside(target.dropFirst(2)) else { throw invalidTarget(target) }
        if let match, !Self.staysInside(Substring(match)) {
            throw ModuleResolutionError(.invalidModuleSpecifier, "'\(match)' is not a valid match for a pattern of \"\(field.rawValue)\" in \(manifest.path), "
                                        + "\(importer)")
        }
        return .file((manifest.folder == "/" ? "" : manifest.folder) + substituted.dropFirst())
    }

    /// Whether a relative path has no empty, `.`, `..` or `node_modules` segment.
    private static func staysInside(_ path: Substring) -> Bool {
        !path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            segment.isEmpty || segment == "." || segment == ".." || segment.lowercased() == "node_modules"
        }
    }

    private func invalidTarget(_ target: String) -> ModuleResolutionError {
        ModuleResolutionError(.invalidPackageTarget, "Invalid \"\(field.rawValue)\" target \(target) in \(manifest.path): expected a path starting with './'"
                              + " inside the package\(field == .imports ? " or a package name" : ""), \(importer)")
    }

    private func invalidConfig(_ why: String) -> ModuleResolutionError {
        ModuleResolutionError(.invalidPackageConfig, "Invalid package config \(manifest.path): \(why), \(importer)")
    }
}
