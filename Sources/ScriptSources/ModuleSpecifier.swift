import SystemIO

/// What a request string names, before any file is looked at.
enum ModuleSpecifier: Equatable {
    /// A path made absolute against the importing file's folder; `folderOnly` when it ends in `/`,
    /// `.` or `..`, which name a folder (Node skips the file candidates for those).
    case path(String, folderOnly: Bool)
    /// A package in some `node_modules`: `name` (`semver`, `@scope/pkg`) and `subpath` in the form
    /// `"exports"` keys take (`"."`, `"./functions/satisfies"`).
    case package(name: String, subpath: String)
    /// A `#name` request: the importing package's `"imports"`.
    case packageImport(String)
    /// A `node:` request (`node:fs`): Node's built-ins, which HybridHost has none of. (A bare `fs`
    /// is a package, which the app may have installed; only when none is found is it a built-in.)
    case builtin(String)

    /// Throws `ERR_INVALID_MODULE_SPECIFIER` for an empty request, a URL other than `file:` (and
    /// that for `import` only, as in Node), a lone `@scope`, or a package name Node refuses.
    init(_ request: String, folder: String, kind: ModuleRequestKind, importer: String) throws(ModuleResolutionError) {
        func invalid(_ why: String) -> ModuleResolutionError {
            ModuleResolutionError(.invalidModuleSpecifier, "Invalid module '\(request)' \(importer): \(why)")
        }
        if request.isEmpty { throw invalid("expected a path such as './cart' or a package name such as 'semver'") }
        if request.hasPrefix("node:") {
            self = .builtin(request)
            return
        }
        if request.hasPrefix("file:") {
            guard kind == .import else { throw invalid("require takes a path, not a file: URL") }
            guard let path = Self.path(ofFileURL: request) else { throw invalid("expected a file URL such as file:///app/cart.js") }
            self = .path(FileSystem.absolute(path), folderOnly: path.hasSuffix("/"))
            return
        }
        if request.hasPrefix("#") {
            guard request != "#", !request.hasPrefix("#/") else { throw invalid("a package import is '#name'") }
            self = .packageImport(request)
            return
        }
        if request.hasPrefix("/") || request == "." || request == ".." || request.hasPrefix("./") || request.hasPrefix("../") {
            let folderOnly = request.hasSuffix("/") || request.hasSuffix("/.") || request.hasSuffix("/..") || request == "." || request == ".."
            self = .path(FileSystem.absolute(request.hasPrefix("/") ? request : folder + "/" + request), folderOnly: folderOnly)
            return
        }
        if let colon = request.firstIndex(of: ":"), !request[..<colon].contains("/") {
            throw invalid("only paths, package names and file: URLs name modules here")
        }
        let parts = request.split(separator: "/", maxSplits: request.hasPrefix("@") ? 2 : 1, omittingEmptySubsequences: false)
        let nameParts = request.hasPrefix("@") ? 2 : 1
        guard parts.count >= nameParts, parts.prefix(nameParts).allSatisfy({ !$0.isEmpty }) else {
            throw invalid("a scoped package name is '@scope/name'")
        }
        let name = parts.prefix(nameParts).joined(separator: "/")
        if name.hasPrefix(".") || name.contains("%") || name.contains("\\") {
            throw invalid("'\(name)' is not a valid package name")
        }
        let rest = parts.dropFirst(nameParts).joined(separator: "/")
        self = .package(name: name, subpath: parts.count > nameParts ? "./" + rest : ".")
    }

    /// The path of a `file:` URL (`file:///a/b`, `file://localhost/a/b`), percent-decoded.
    static func path(ofFileURL url: String) -> String? {
        var rest = url.dropFirst("file:".count)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let host = rest[..<slash]
            guard host.isEmpty || host == "localhost" else { return nil }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/") else { return nil }
        if let mark = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<mark] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
