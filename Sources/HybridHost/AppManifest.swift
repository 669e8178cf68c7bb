import Bridge
import JSON
import Patches
import SystemIO

/// What `app.json` says about an app, or what a single `.js` file implies.
public struct AppManifest: Sendable, Equatable {
    public var name: String
    public var version: String
    /// Absolute path of the main module.
    public var mainPath: String
    /// The app folder (for a single file, its folder).
    public var directory: String
    /// Grant entries as written; checked against the registry at start-up.
    public var grants: [String]
    /// Ed25519 public keys (base64) allowed to sign patches.
    public var patchKeys: [String]
    /// app.json `patches`: the patch server the app checks; nil: none.
    public var patchServer: PatchServerSettings?
    /// Where the grants came from, for error messages: "app.json: grants" or "--grant".
    public var grantSource: String
    /// What the app may use (`quotas`; the defaults for a single file).
    public var quotas: AppQuotas = .defaults
    /// How its requests run per host (`network`; the defaults for a single file).
    public var network: AppNetworkSettings = .defaults

    /// The extensions of a module file an app may start from (`hybrid run cart.ts`).
    public static let moduleExtensions = [".js", ".ts", ".mjs", ".mts", ".cjs", ".cts"]

    /// Reads an app folder (with `app.json`) or a single module file (`.js`, `.ts`, `.mjs`, ...).
    /// The keys app.json may hold; any other is refused, naming the nearest of these.
    static let knownKeys = ["name", "version", "main", "grants", "patchKeys", "patches", "quotas", "network"]

    public static func load(path: String, grantFlags: [String]) throws(AppLoadError) -> AppManifest {
        let absolute = FileSystem.absolute(path)
        switch FileSystem.kind(of: absolute) {
        case .missing:
            throw AppLoadError("\(path): no such file or folder; expected an app folder with app.json or a module file (.js, .ts, .mjs, .mts, .cjs, .cts)",
                               usage: true)
        case .file:
            guard let ext = moduleExtensions.first(where: { absolute.hasSuffix($0) }) else {
                throw AppLoadError("\(path): expected an app folder with app.json or a module file (.js, .ts, .mjs, .mts, .cjs, .cts)", usage: true)
            }
            let file = String(absolute.split(separator: "/").last ?? "app")
            return AppManifest(name: String(file.dropLast(ext.count)), version: "0.0.0", mainPath: absolute,
                               directory: FileSystem.directory(of: absolute), grants: grantFlags,
                               patchKeys: [], grantSource: "--grant")
        case .directory:
            return try loadFolder(absolute, displayPath: path, grantFlags: grantFlags)
        }
    }

    /// The app `hybrid repl` runs without one: no main module (`mainPath` is empty), `directory`
    /// as its folder (where `require("./x")` starts), the grants given.
    public static func scratch(name: String, directory: String, grants: [String]) -> AppManifest {
        AppManifest(name: name, version: "0.0.0", mainPath: "", directory: FileSystem.absolute(directory),
                    grants: grants, patchKeys: [], grantSource: "--grant")
    }

    static func loadFolder(_ directory: String, displayPath: String, grantFlags: [String]) throws(AppLoadError) -> AppManifest {
        let manifestPath = directory + "/app.json"
        let file = displayPath.hasSuffix("/") ? displayPath + "app.json" : displayPath + "/app.json"
        let text: String
        do {
            text = try FileSystem.text(atPath: manifestPath)
        } catch {
            throw AppLoadError("\(file): cannot read (\(error.reason)); an app folder needs an app.json such as {\"name\": \"tasks\", \"main\": \"main.js\"}")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw AppLoadError("\(file): not JSON: \(error)")
        }
        guard case .object(let root) = json else { throw AppLoadError("\(file): expected an object") }
        // A misspelt key would otherwise be ignored: `"grant": [...]` ran the app with no grants.
        for (key, _) in root where !knownKeys.contains(key) {
            let nearest = NearestName.of(key, among: knownKeys).map { "did you mean \"\($0)\"? " } ?? ""
            throw AppLoadError("\(file): \"\(key)\": unknown key; \(nearest)expected one of \(knownKeys.joined(separator: ", "))")
        }

        func string(_ key: String, default value: String?) throws(AppLoadError) -> String {
            switch root[key] {
            case .string(let s)? where !s.isEmpty: return s
            case nil where value != nil: return value!
            case nil: throw AppLoadError("\(file): \(key): missing; expected a non-empty string")
            case let other?: throw AppLoadError("\(file): \(key): expected a non-empty string, got \(other.typeName)")
            }
        }
        func strings(_ key: String) throws(AppLoadError) -> [String] {
            guard let value = root[key] else { return [] }
            guard case .array(let items) = value else { throw AppLoadError("\(file): \(key): expected an array of strings, got \(value.typeName)") }
            var result: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let s) = item else { throw AppLoadError("\(file): \(key)[\(index)]: expected a string, got \(item.typeName)") }
                result.append(s)
            }
            return result
        }

        let name = try string("name", default: nil)
        if let problem = nameProblem(name) {
            throw AppLoadError("\(file): name: \(problem), got \(JSONWriter.write(.string(name))); expected a name that can be the app's data folder: "
                               + "no \"/\", not \".\" or \"..\", no control characters, at most \(maximumNameBytes) bytes")
        }
        let version = try string("version", default: "0.0.0")
        // Without "main": main.js, else main.ts, main.mjs, ... whichever exists.
        let fallback = moduleExtensions.map { "main" + $0 }.first { FileSystem.kind(of: directory + "/" + $0) == .file } ?? "main.js"
        let main = try string("main", default: fallback)
        let mainPath = FileSystem.absolute(main.hasPrefix("/") ? main : directory + "/" + main)
        guard FileSystem.kind(of: mainPath) == .file else {
            throw AppLoadError("\(file): main: \"\(main)\" does not exist; expected the app's main module")
        }
        var grants = try strings("grants")
        grants += grantFlags
        var manifest = AppManifest(name: name, version: version, mainPath: mainPath, directory: directory,
                                   grants: grants, patchKeys: try strings("patchKeys"), grantSource: "\(file): grants")
        do {
            manifest.quotas = try AppQuotas.parse(root["quotas"], source: "\(file): quotas")
            manifest.network = try AppNetworkSettings.parse(root["network"], source: "\(file): network", appDirectory: directory)
        } catch {
            throw AppLoadError(error.description)
        }
        do {
            manifest.patchServer = try PatchServerSettings.parse(root["patches"], source: "\(file): patches", patchKeys: manifest.patchKeys)
        } catch {
            throw AppLoadError(error.description)
        }
        return manifest
    }
}

extension AppManifest {
    /// The longest `name`, in UTF-8 bytes: it names the app's data folder, and a file name may
    /// have 255.
    static let maximumNameBytes = 128

    /// What makes `name` unfit to name a folder under the data root, or nil.
    static func nameProblem(_ name: String) -> String? {
        if name.utf8.count > maximumNameBytes { return "\(name.utf8.count) bytes is too long" }
        if name == "." || name == ".." { return "a folder's own name" }
        if name.contains("/") { return "has a path separator" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) { return "has a control character" }
        return nil
    }
}

/// Why an app could not start: the message names the file, the field and what was expected.
public struct AppLoadError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The command line named something that is not there (exit 2), rather than an app that is
    /// wrong (exit 1).
    public let usage: Bool
    public init(_ message: String, usage: Bool = false) {
        self.message = message
        self.usage = usage
    }
    public var description: String { message }
}
