import JSON
import SystemIO

/// What module resolution reads from one `package.json`: the package's name (for
/// self-reference), `"type"`, the entry fields and `"exports"`. Fields of the wrong type are
/// ignored, as Node ignores them.
struct PackageManifest {
    /// The `package.json` file itself.
    let path: String
    /// The package's folder, which `"exports"` and entry fields are relative to.
    let folder: String
    let name: String?
    let type: String?
    /// `"main"` and `"module"`, by field name.
    let entries: [String: String]
    /// `"exports"` and `"imports"`; nil when absent or `null`.
    let exports: JSONValue?
    let imports: JSONValue?

    /// The manifest in `folder`, nil when it has no `package.json`. Throws
    /// `ERR_INVALID_PACKAGE_CONFIG` naming the file when it cannot be read or is not a JSON object.
    init?(folder: String) throws(ModuleResolutionError) {
        let path = folder == "/" ? "/package.json" : folder + "/package.json"
        let text: String
        do {
            guard let read = try FileSystem.textIfPresent(atPath: path) else { return nil }
            text = read
        } catch {
            if FileSystem.kind(of: path) == .directory { return nil }
            throw ModuleResolutionError(.invalidPackageConfig, "Invalid package config \(path): \(error.reason)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw ModuleResolutionError(.invalidPackageConfig, "Invalid package config \(path): \(error)")
        }
        guard let object = value.objectValue else {
            throw ModuleResolutionError(.invalidPackageConfig, "Invalid package config \(path): expected an object, got \(value.typeName)")
        }
        self.path = path
        self.folder = folder
        name = object["name"]?.stringValue
        type = object["type"]?.stringValue
        var entries: [String: String] = [:]
        for field in ["main", "module"] {
            if let entry = object[field]?.stringValue, !entry.isEmpty { entries[field] = entry }
        }
        self.entries = entries
        exports = Self.present(object["exports"])
        imports = Self.present(object["imports"])
    }

    /// A field's value, nil when it is absent or `null`. (Not `flatMap { $0.isNull ? nil : $0 }`:
    /// JSONValue is ExpressibleByNilLiteral, so that nil would be `.null`.)
    private static func present(_ value: JSONValue?) -> JSONValue? {
        guard let value, !value.isNull else { return nil }
        return value
    }
}
