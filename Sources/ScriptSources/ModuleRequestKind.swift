/// How a module is asked for, which decides the `package.json` fields and `"exports"` conditions
/// resolution honours: `require(x)` or `import x` / `import(x)`.
public enum ModuleRequestKind: Sendable, Equatable {
    case require
    case `import`

    /// The `"exports"` conditions this kind matches, besides `"default"` (which always matches),
    /// from the most particular to the most general: `"hybrid"`, then `"worker"` (the key of the
    /// builds for web-platform runtimes without a DOM, which Cloudflare's workerd and bundlers
    /// targeting workers match too: such a build uses the web platform's globals, `URL`,
    /// `TextEncoder`, `atob`, where the Node build would `require("crypto")`), then the kind's
    /// own. A conditions object is still read in its own key order, as Node reads it; this order
    /// is the one packages write them in. Never `"node"` or `"browser"`: HybridHost has neither
    /// Node's built-in modules nor a DOM, so a package's Node or browser build would fail on the
    /// first `require("fs")` or `document`.
    /// `"module"` is the bundlers' condition for an ES module build, taken by `import` only.
    var conditions: [String] {
        switch self {
        case .require: ["hybrid", "worker", "require"]
        case .import: ["hybrid", "worker", "import", "module"]
        }
    }

    /// The `package.json` fields naming a folder's entry file, in the order they are tried:
    /// `import` takes `"module"` before `"main"`, as bundlers do.
    var entryFields: [String] {
        switch self {
        case .require: ["main"]
        case .import: ["module", "main"]
        }
    }

    /// How an error message says who asked: "required from" or "imported from".
    var verb: String {
        switch self {
        case .require: "required"
        case .import: "imported"
        }
    }
}
