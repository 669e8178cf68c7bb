/// The names of Node's built-in modules, which a bare request like `fs` or `path/posix` would mean
/// under Node. HybridHost has none of them (its services are on `Hybrid.*`), so naming one is an
/// error that says so, unless the app installed a package of that name (the `events`, `buffer`
/// and `util` polyfills are published as such), as browser bundlers do.
enum NodeBuiltinModules {
    /// Node 20's `require("module").builtinModules`, less its internal `_`-prefixed names.
    static let names: Set<String> = [
        "assert", "assert/strict", "async_hooks", "buffer", "child_process", "cluster", "console",
        "constants", "crypto", "dgram", "diagnostics_channel", "dns", "dns/promises", "domain", "events",
        "fs", "fs/promises", "http", "http2", "https", "inspector", "inspector/promises", "module", "net",
        "os", "path", "path/posix", "path/win32", "perf_hooks", "process", "punycode", "querystring",
        "readline", "readline/promises", "repl", "stream", "stream/consumers", "stream/promises",
        "stream/web", "string_decoder", "sys", "timers", "timers/promises", "tls", "trace_events", "tty",
        "url", "util", "util/types", "v8", "vm", "wasi", "worker_threads", "zlib"
    ]
}
