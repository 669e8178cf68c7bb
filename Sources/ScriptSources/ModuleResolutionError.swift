/// Why a module request names no file, with Node's error code for it and a message that names the
/// request, the importing file and what was looked at.
public struct ModuleResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Node's codes, so that `error.code` in JS reads as it does under Node.
    public enum Code: String, Sendable, Equatable {
        /// No file for the request: the candidates tried, or the folders searched for a package.
        /// (Node's `import` says `ERR_MODULE_NOT_FOUND`; one code serves both kinds here.)
        case moduleNotFound = "MODULE_NOT_FOUND"
        /// The package's `"exports"` has no target for the subpath under our conditions.
        case packagePathNotExported = "ERR_PACKAGE_PATH_NOT_EXPORTED"
        /// A `#name` request its package's `"imports"` does not define under our conditions.
        case packageImportNotDefined = "ERR_PACKAGE_IMPORT_NOT_DEFINED"
        /// A `package.json` that is not a JSON object, or whose `"exports"` mixes subpaths and conditions.
        case invalidPackageConfig = "ERR_INVALID_PACKAGE_CONFIG"
        /// An `"exports"` or `"imports"` target that does not start with `./` (or, in imports, name
        /// a package) or leaves the package folder.
        case invalidPackageTarget = "ERR_INVALID_PACKAGE_TARGET"
        /// A request that is no path, package name, `#` import or `file:` URL.
        case invalidModuleSpecifier = "ERR_INVALID_MODULE_SPECIFIER"
        /// A folder named by an `import` from JavaScript, which Node's ES module resolution refuses.
        case unsupportedDirectoryImport = "ERR_UNSUPPORTED_DIR_IMPORT"
        /// A Node built-in module (`fs`, `node:fs`): HybridHost has none.
        case unknownBuiltinModule = "ERR_UNKNOWN_BUILTIN_MODULE"
        /// A native addon (`x.node`, compiled for Node): Node's code when it cannot load one.
        case nativeAddon = "ERR_DLOPEN_FAILED"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
