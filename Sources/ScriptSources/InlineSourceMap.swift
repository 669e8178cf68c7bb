import JSON

/// A module's source map as a `//# sourceMappingURL=data:…` comment, for a debugger
/// (`hybrid run --inspect`): JavaScriptCore reports the URL with the script, so a debugger maps
/// the compiled lines back to the file the author wrote.
///
/// The map is made to describe the script as compiled: its first line starts with the module
/// wrapper (`prefixLength` UTF-16 units), so the first mapping of that line moves right by as
/// much, and its one source is the module's file as loaded now (a cached map may name it as
/// another run saw it).
public enum InlineSourceMap {
    public static func comment(map json: String, source: String, prefixLength: Int) -> String? {
        guard case .object(var map)? = try? JSONParser.parse(json),
              case .string(let mappings)? = map["mappings"] else { return nil }
        map["mappings"] = .string(shiftingFirstLine(mappings, by: prefixLength))
        map["sources"] = .array([.string(source)])
        map["sourceRoot"] = nil
        return "//# sourceMappingURL=data:application/json;base64," + Base64.encode(Array(JSONWriter.write(.object(map)).utf8))
    }

    /// Columns of a line's segments after the first are relative to the one before, so only the
    /// first segment of the first line changes. A first line with no segment (esbuild's
    /// `"use strict";` above the module's code) gets one, at the wrapper's end, naming the
    /// module's first line: where a debugger pauses before the app's first statement maps to it.
    /// Its source, line and column are the state the next segment's deltas start from, so they
    /// stay true.
    static func shiftingFirstLine(_ mappings: String, by offset: Int) -> String {
        guard offset != 0 else { return mappings }
        guard let first = mappings.utf8.first, first != UInt8(ascii: ",") else { return mappings }
        if first == UInt8(ascii: ";") { return Base64VLQ.encode([offset, 0, 0, 0]) + mappings }
        let end = mappings.utf8.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") } ?? mappings.utf8.endIndex
        guard var values = try? Base64VLQ.decode(String(mappings[..<end])), !values.isEmpty else { return mappings }
        values[0] += offset
        return Base64VLQ.encode(values) + mappings[end...]
    }
}
