import JSON
import ScriptSources
import SystemIO

/// A script the inspector reported (`Debugger.scriptParsed`): its URL (a module's absolute path),
/// and for a transformed module (TypeScript, an ES module) its source map, read at first use.
final class LoadedScript: Sendable {
    let id: String
    let url: String
    private let sourceMapURL: String?
    private let map = ScriptSourceMapCache()

    /// `hybrid run` wraps each module's code in one line before its first, which shifts line 0's
    /// columns by its length (a source map already counts it).
    static let moduleWrapperPrefix = "(function (exports, require, module, __filename, __dirname) {"

    init(id: String, url: String, sourceMapURL: String?) {
        self.id = id
        self.url = url
        self.sourceMapURL = sourceMapURL.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The host's own scripts (its runtime, `hybrid:` URLs) and scripts with no URL (an
    /// evaluation): never shown, never stepped into.
    var isInternal: Bool { Self.isInternal(url: url) }

    static func isInternal(url: String) -> Bool { url.isEmpty || url.hasPrefix("hybrid:") }

    /// The file a person edits: the URL without a patch's `?patch=` query.
    var path: String { Self.path(ofURL: url) }

    static func path(ofURL url: String) -> String {
        guard let query = url.range(of: "?patch=") else { return url }
        return String(url[..<query.lowerBound])
    }

    var hasSourceMap: Bool { sourceMapURL != nil }

    /// The source map, nil when the script has none or it does not read.
    var sourceMap: SourceMap? {
        guard let sourceMapURL else { return nil }
        return map.value { Self.readMap(sourceMapURL, scriptURL: url) }
    }

    /// A `data:` URL's map, or a map file (resolved against the script's folder).
    static func readMap(_ reference: String, scriptURL: String) -> SourceMap? {
        let path = LoadedScript.path(ofURL: scriptURL)
        let text: String
        if reference.hasPrefix("data:") {
            guard let comma = reference.firstIndex(of: ","), reference[..<comma].hasSuffix(";base64"),
                  let bytes = Base64.decode(String(reference[reference.index(after: comma)...])) else { return nil }
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            let file = reference.hasPrefix("/") ? reference : FileSystem.directory(of: path) + "/" + reference
            guard let read = try? FileSystem.text(atPath: file) else { return nil }
            text = read
        }
        return try? SourceMap(json: text, location: path, source: path)
    }

    /// Where generated `line` and `column` (0-based) of this script are in the file a person
    /// edits: through the source map when there is one, else the same line (line 0's column
    /// without the module wrapper).
    func original(line: Int, column: Int) -> (path: String, line: Int, column: Int) {
        if hasSourceMap {
            if let position = sourceMap?.original(line: line, column: column) {
                return (position.source, position.line, position.column)
            }
            return (path, line, column)
        }
        let shift = line == 0 && column >= Self.moduleWrapperPrefix.utf16.count ? Self.moduleWrapperPrefix.utf16.count : 0
        return (path, line, column - shift)
    }

    /// Where a breakpoint on original `line` (0-based) of `path` goes in this script: through the
    /// source map (nil when nothing maps from that line or just after), else the line itself
    /// (past the wrapper on line 0).
    func generated(path: String, line: Int) -> (line: Int, column: Int)? {
        if hasSourceMap {
            return sourceMap?.generated(source: path, line: line)
        }
        return (line, line == 0 ? Self.moduleWrapperPrefix.utf16.count : 0)
    }
}

/// A value worked out once, on first use, and kept (a script's source map).
final class ScriptSourceMapCache: Sendable {
    private let stored = Locked<SourceMap??>(nil)

    func value(_ make: () -> SourceMap?) -> SourceMap? {
        stored.withLock { stored in
            if let known = stored { return known }
            let made = make()
            stored = .some(made)
            return made
        }
    }
}
