/// The step that lets a module await at top level although esbuild refuses top-level `await` when
/// it writes CommonJS. Its input is esbuild's ES module output for one file with every import
/// external (`--bundle --external:*`), which has a fixed shape: a comment naming the file, the
/// `import` and `export ... from` statements, the body, one `export { local as name, ... };` list,
/// the inline source map. The body moves into an async function that the loader calls after the
/// module's imports are loaded:
///
/// ```js
/// import { a } from "./a";                    // stays: esbuild turns it into require
/// module.evaluate = async function (__hybrid_define) { __hybrid_define({ "b": () => b }); if (...) await ...; var b = await a();
/// __hybrid_define.done(); };                  // the export list, blanked
/// ```
///
/// Exports are getters over the function's variables, defined before anything awaits, so they are
/// live and a module in a cycle sees them. The body waits only for imported modules still
/// evaluating, so a module whose imports are done runs at once, as in Node; `done()` marks it
/// evaluated as soon as its body ends without having awaited. Lines are kept where they were (the export list becomes
/// blank lines), so the inline source map stays true and esbuild's second pass chains it.
enum TopLevelAwaitRewrite {
    struct ShapeError: Error, CustomStringConvertible {
        let description: String
    }

    static func rewrite(_ module: String) throws(ShapeError) -> String {
        var lines = module.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var end = lines.count
        while end > 0, lines[end - 1].isEmpty || lines[end - 1].hasPrefix("//# sourceMappingURL=") { end -= 1 }
        let (exports, listStart) = try exportList(lines, end: end)
        var bodyStart = 0
        var inStatement = false
        while bodyStart < listStart {
            let line = lines[bodyStart]
            if inStatement {
                inStatement = !line.hasSuffix(";")
            } else if line.hasPrefix("//") || line.isEmpty {
                // the file name comment
            } else if line.hasPrefix("import ") || line.hasPrefix("export * ") {
                inStatement = !line.hasSuffix(";")
            } else {
                break
            }
            bodyStart += 1
        }
        let getters = exports.map { "\(quoted($0.name)): () => \($0.local)" }.joined(separator: ", ")
        let opening = "module.evaluate = async function (__hybrid_define) { __hybrid_define({ \(getters) }); "
            + "if (__hybrid_define.dependencies.length) await Promise.all(__hybrid_define.dependencies); "
        let closing = "__hybrid_define.done(); };"
        if bodyStart < listStart {
            lines[bodyStart] = opening + lines[bodyStart]
            lines[listStart - 1] += "\n" + closing
        } else {
            lines.insert(opening + closing, at: listStart)
        }
        for index in listStart..<end where index < lines.count { lines[index] = "" }
        return lines.joined(separator: "\n")
    }

    /// The closing `export { ... };` list: its (local, exported name) pairs and its first line.
    /// A module without exports has none; the list then "starts" at `end`.
    static func exportList(_ lines: [String], end: Int) throws(ShapeError) -> ([(local: String, name: String)], Int) {
        guard end > 0 else { return ([], end) }
        let last = lines[end - 1]
        var start = end - 1
        var text: String
        if last.hasPrefix("export {") && last.hasSuffix("};") {
            text = String(last.dropFirst("export {".count).dropLast(2))
        } else if last == "};" {
            while start > 0, lines[start] != "export {" { start -= 1 }
            guard lines[start] == "export {" else { throw ShapeError(description: "unexpected esbuild output: an export list's end without its start") }
            text = lines[(start + 1)..<(end - 1)].joined(separator: " ")
        } else {
            return ([], end)
        }
        text = text.replacingOccurrences(",", with: " , ")
        var pairs: [(local: String, name: String)] = []
        for item in text.split(separator: ",") {
            let words = item.split(separator: " ").map(String.init)
            switch words.count {
            case 1: pairs.append((words[0], words[0]))
            case 3 where words[1] == "as": pairs.append((words[0], unquoted(words[2])))
            case 0: continue
            default: throw ShapeError(description: "unexpected esbuild output: export item \(item)")
            }
        }
        return (pairs, start)
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"") + "\""
    }

    private static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.first == "\"", name.last == "\"" else { return name }
        return String(name.dropFirst().dropLast())
    }
}

private extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
