/// The distribution's identity, from `os-release(5)`: `/etc/os-release`, else `/usr/lib/os-release`.
///
/// ```swift
/// let release = OSRelease.parse(#"NAME="Debian GNU/Linux"\#nVERSION_ID="12""#)
/// release.name        // "Debian GNU/Linux"
/// release.osVersion   // "12"
/// ```
struct OSRelease: Sendable, Equatable {
    /// Every assignment in the file, unquoted.
    var fields: [String: String]

    var name: String? { fields["NAME"] }
    var prettyName: String? { fields["PRETTY_NAME"] }
    var versionID: String? { fields["VERSION_ID"] }

    /// `NAME`, else `PRETTY_NAME`, else "Linux" (the default os-release(5) itself gives `NAME`).
    var osName: String { nonEmpty("NAME") ?? nonEmpty("PRETTY_NAME") ?? "Linux" }

    /// `VERSION_ID`, else `VERSION`, else `BUILD_ID` (rolling releases such as Arch have only
    /// that), else "".
    var osVersion: String { nonEmpty("VERSION_ID") ?? nonEmpty("VERSION") ?? nonEmpty("BUILD_ID") ?? "" }

    private func nonEmpty(_ key: String) -> String? {
        guard let value = fields[key], !value.isEmpty else { return nil }
        return value
    }

    /// Reads the file's `KEY=value` lines, with values unquoted as a shell would: `"..."` with
    /// backslash escapes, `'...'` literally, or bare. Comments, blank and malformed lines are
    /// skipped, never fatal: an odd line must not cost the user the rest of the answer.
    static func parse(_ text: String) -> OSRelease {
        var fields: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = String(rawLine).trimmingWhiteSpace()
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                continue
            }
            fields[key] = unquote(line[line.index(after: equals)...])
        }
        return OSRelease(fields: fields)
    }

    private static func unquote(_ value: Substring) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in value {
            if escaped {
                // Inside double quotes a backslash escapes only $ ` " \ (as in sh); elsewhere, anything.
                if quote == "\"" && !"$`\"\\".contains(character) { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { result.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else {
                result.append(character)
            }
        }
        return result
    }
}
