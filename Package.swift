// swift-tools-version: 6.0
// HybridHost: a Linux host that runs JavaScript business scripts on JavaScriptCore against native
// services over a bridge in which only JavaScript initiates calls. Layers point down, and the
// build checks every import against the dependencies declared here (`make test`):
//   hybrid (CLI) -> HybridHost -> services (Device, Storage, Sync, Networking, Views, Patches) -> Bridge -> Engine
//   lower layers the services share, which know nothing of the bridge or JS: SyncClient ->
//   Persistence, KeyValueStore, CurlTransport, SyncProtocol, TextEncodings -> JSON, SystemIO, C modules.
// ARCHITECTURE.md has the module table and the threading model.
import PackageDescription

let package = Package(
    name: "HybridHost",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hybrid", targets: ["hybrid"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // WebCrypto's SPKI and PKCS#8 key containers (already in the build, under swift-crypto).
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Imported directly where Hummingbird servers are started and stopped (quiet logs, graceful shutdown).
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The sync server's PostgreSQL store: several server instances over one database.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The sync server's GET /v1/metrics: swift-prometheus' registry and text format, over the
        // swift-metrics that it and Hummingbird build on (pinned here so that both agree).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // hybrid-bench's load generator (thousands of HTTP/1.1 connections on NIO's event loops), and
        // the sync server's connection guard, a channel handler between Hummingbird's HTTP/1 codec and
        // its requests (already in the build, under Hummingbird and postgres-nio).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        // TLS: to PostgreSQL (sslmode) and for the servers' own HTTPS; PostgresNIO already builds on it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The connection guard's queues of idle connections (already in the build, under swift-nio).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The host's own JavaScript, its contracts and the sync server's OpenAPI document, embedded
        // as Swift string literals at build time into the targets below that name it (one copy of
        // each file lives in the repository).
        .plugin(name: "EmbedSources", capability: .buildTool()),

        // C modules
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // No pkgConfig: its cflags carry -DUTF8PROC_EXPORTS, which SwiftPM refuses; the header is in
        // /usr/include and the module map links the library.
        .systemLibrary(name: "CUTF8Proc", providers: [.apt(["libutf8proc-dev"])]),
        // No pkgConfig: its flags would link libcurl, which the shim loads on first use instead.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL 3's libcrypto: WebCrypto's Ed448, X448, RSA-OAEP labels and hashes, RSA-PSS salts. No
        // pkgConfig: its flags would link libcrypto, which the shim loads on first use instead.
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"])]),
        // ICU: the converters TextEncodings builds the WHATWG multi-byte indexes from, UTS #46 for IDNA.
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
        // zlib: CompressionStream and DecompressionStream (gzip, deflate, deflate-raw).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // zstd: patch deltas (a module's new source against the one a device runs, as a raw prefix).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // The C library's GNU extensions for spawning a child (closefrom, chdir, pipe2), which
        // Swift's Glibc module does not declare.
        .target(name: "CSpawn"),

        // JSON values, parsing, writing, pointers: the currency every layer above trades in.
        .target(name: "JSON"),
        // Files, the monotonic clock, standard streams and the environment, over the C library.
        // glibc's mallinfo2, for the heap statistics log (HYBRID_HEAP_STATS).
        .target(name: "CMallocStats"),
        .target(name: "SystemIO", dependencies: ["CSpawn", "CMallocStats"]),
        // How app source files become the JavaScript that runs: Node's module resolution, the
        // TypeScript/ES module transform (esbuild) and its cache, source maps. No engine here.
        .target(name: "ScriptSources", dependencies: ["JSON", "SystemIO", .product(name: "Crypto", package: "swift-crypto")]),
        // One JavaScriptCore context on one JS thread, its event loop, console and modules: the
        // only user of the C module.
        .target(name: "Engine", dependencies: ["CJavaScriptCore", "JSON", "ScriptSources", "SystemIO"], plugins: ["EmbedSources"]),
        // Envelopes, the service registry, contracts and their schema validator, grants.
        .target(name: "Bridge", dependencies: ["Engine", "JSON", "SystemIO"], plugins: ["EmbedSources"]),
        // SQLite through GRDB, below the services that share it (storage, sync): the database layer,
        // with its one write path open to a journal that follows a table's writes (WriteJournal).
        .target(name: "Persistence", dependencies: ["JSON", "SystemIO", .product(name: "GRDB", package: "GRDB.swift")]),
        // A key-value store over one Persistence database: buckets, metadata, expiry, indexes, a cache.
        .target(name: "KeyValueStore", dependencies: ["JSON", "Persistence", .product(name: "GRDB", package: "GRDB.swift")]),
        // What the sync server and its clients agree on: wire operations, the fold rule, batch filters.
        .target(name: "SyncProtocol", dependencies: ["JSON"]),
        // What the patch server and the devices' patch loader agree on: the signed patch format and its
        // verifier, the check/offer/report/revocation wire types, the rollout cohort, zstd deltas.
        .target(name: "PatchProtocol", dependencies: ["CZstd", "JSON", "SystemIO", .product(name: "Crypto", package: "swift-crypto")]),
        // JSON Web Tokens as the sync server verifies them and operators mint them (HS256, EdDSA).
        .target(name: "SyncAuth", dependencies: ["JSON", .product(name: "Crypto", package: "swift-crypto")]),
        // Sync's client side in one database: the journal at Persistence's write path, the replica,
        // the execution of pulled operations, the policy. It talks to no server (the service does).
        .target(name: "SyncClient", dependencies: ["JSON", "Persistence", "SyncProtocol", .product(name: "GRDB", package: "GRDB.swift")]),
        // HTTP over libcurl's multi interface on one thread: below the services that share it
        // (network, later sync).
        .target(name: "CurlTransport", dependencies: ["CCurl", "JSON", "SystemIO"]),
        // A private client cache's reading of responses (RFC 9111): Cache-Control, HTTP dates, an
        // entry's freshness and its file form. Below Networking's cache; nothing of JS or files.
        .target(name: "HTTPCaching", dependencies: ["CurlTransport", "JSON"]),
        // Client WebSockets (RFC 6455) on SwiftNIO: libcurl 7.88 has none. Nothing of JS.
        .target(name: "WebSocketTransport", dependencies: ["JSON", .product(name: "DequeModule", package: "swift-collections"),
                                                         .product(name: "Crypto", package: "swift-crypto"),
                                                         .product(name: "NIOCore", package: "swift-nio"),
                                                         .product(name: "NIOPosix", package: "swift-nio"),
                                                         .product(name: "NIOHTTP1", package: "swift-nio"),
                                                         .product(name: "NIOWebSocket", package: "swift-nio"),
                                                         .product(name: "NIOTLS", package: "swift-nio"),
                                                         .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // zlib's deflate and inflate as incremental streams (zlib, raw and gzip framing): below the web
        // platform's CompressionStream and the servers' compressed answers. Nothing of JS or HTTP.
        .target(name: "Deflate", dependencies: ["CZlib"]),
        // The WHATWG Encoding Standard: every encoding's decoder and encoder, labels, base64 for
        // atob/btoa. Bytes and UTF-16 in and out; nothing of JS.
        .target(name: "TextEncodings", dependencies: ["CICU"]),
        // Internationalized domain names: UTS #46 ToASCII over ICU, for the URL Standard's hosts.
        .target(name: "IDNA", dependencies: ["CICU"]),
        // Services: one target each, never importing one another.
        .target(name: "Device", dependencies: ["Bridge", "JSON", "SystemIO"]),
        .target(name: "Storage", dependencies: ["Bridge", "Engine", "KeyValueStore", "Persistence", "JSON"]),
        .target(name: "Views", dependencies: ["Bridge", "CUTF8Proc", "JSON", "SystemIO"]),
        // Persistence: the offline queue's file, written through its one write path.
        .target(name: "Networking", dependencies: ["Bridge", "CurlTransport", "HTTPCaching", "JSON", "Persistence", "SystemIO", "WebSocketTransport",
                                                 .product(name: "GRDB", package: "GRDB.swift"),
                                                 .product(name: "DequeModule", package: "swift-collections"),
                                                 .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "Sync", dependencies: ["Bridge", "CurlTransport", "Persistence", "SyncClient", "SyncProtocol", "JSON", "SystemIO"]),
        // The web platform's globals (URL, TextEncoder, structuredClone, localStorage, ...), installed
        // lazily into each app's context.
        .target(name: "WebPlatform", dependencies: ["CLibCrypto", "Deflate", "Engine", "IDNA", "JSON", "KeyValueStore", "Persistence", "SystemIO", "TextEncodings",
                                                    .product(name: "Crypto", package: "swift-crypto"),
                                                    .product(name: "_CryptoExtras", package: "swift-crypto"),
                                                    .product(name: "SwiftASN1", package: "swift-asn1")], plugins: ["EmbedSources"]),
        // Signed hot-swap of JS modules in a running app, with rollback.
        .target(name: "Patches", dependencies: ["Bridge", "CurlTransport", "Engine", "JSON", "PatchProtocol", "ScriptSources", "SystemIO", .product(name: "Crypto", package: "swift-crypto")]),
        // Assembles an app run: manifest, grants, services, the test runner.
        // `hybrid run --inspect`: the hub JavaScriptCore's remote inspector connects to, serving
        // the app's context to one debugger over a WebSocket on 127.0.0.1. Nothing of JS.
        .target(name: "InspectorHub", dependencies: ["JSON", "SystemIO", .product(name: "NIOCore", package: "swift-nio"),
                                                    .product(name: "NIOPosix", package: "swift-nio"),
                                                    .product(name: "NIOHTTP1", package: "swift-nio"),
                                                    .product(name: "NIOWebSocket", package: "swift-nio")]),
        .target(name: "HybridHost", dependencies: ["Engine", "InspectorHub", "Bridge", "Device", "Storage", "Views", "PatchProtocol", "Patches", "Networking", "Sync", "SyncClient", "WebPlatform", "JSON", "KeyValueStore", "Persistence", "ScriptSources", "SystemIO"], plugins: ["EmbedSources"]),
        // What every HTTP server of the product serves with, in Hummingbird's shapes: a typed request
        // context, errors that render their JSON body, authentication and per-route metrics as
        // middleware, the OpenAPI route. Knows no server's rules (the sync server is the first on it).
        .target(name: "HTTPServing", dependencies: ["Deflate", "JSON", "SystemIO", .product(name: "Hummingbird", package: "hummingbird"),
                                                   .product(name: "HummingbirdCore", package: "hummingbird"),
                                                   .product(name: "NIOCore", package: "swift-nio"),
                                                   .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                   .product(name: "Logging", package: "swift-log"),
                                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                   .product(name: "UnixSignals", package: "swift-service-lifecycle")]),
        // What the servers that keep their state in PostgreSQL share: the --db URL, libpq's sslmode,
        // a pool over a migrated schema and its transactions. Knows no server's tables, nor HTTP.
        .target(name: "PostgresStores", dependencies: ["SystemIO", .product(name: "PostgresNIO", package: "postgres-nio"),
                                                      .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                      .product(name: "Logging", package: "swift-log")]),
        // The reference sync server (`hybrid sync-server`): HTTP+JSON over Hummingbird, state in SQLite
        // (one server) or PostgreSQL (any number of servers over one database).
        .target(name: "SyncServer", dependencies: ["HTTPServing", "JSON", "PostgresStores", "SyncAuth", "SyncProtocol", "SystemIO", .product(name: "GRDB", package: "GRDB.swift"),
                                                  .product(name: "Hummingbird", package: "hummingbird"),
                                                  .product(name: "HummingbirdCore", package: "hummingbird"),
                                                  .product(name: "NIOCore", package: "swift-nio"),
                                                  .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                                                  .product(name: "DequeModule", package: "swift-collections"),
                                                  .product(name: "Crypto", package: "swift-crypto"),
                                                  .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                  .product(name: "PostgresNIO", package: "postgres-nio"),
                                                  // A registry of its own per server (SyncMetrics), not swift-metrics'
                                                  // process-wide bootstrap; CoreMetrics is declared for the pin above.
                                                  .product(name: "Prometheus", package: "swift-prometheus"),
                                                  .product(name: "CoreMetrics", package: "swift-metrics")],
                // The OpenAPI document of its API: embedded (OpenAPIDocument.swift) and served at /v1/openapi.json.
                exclude: ["openapi.json"], plugins: ["EmbedSources"]),
        // The patch server (`hybrid patch-server`): signed patches published, rolled out by cohort,
        // halted on rollbacks, revoked; state in SQLite (one server) or PostgreSQL (any number of
        // servers over one database). Knows no JS.
        .target(name: "PatchServer", dependencies: ["HTTPServing", "JSON", "PatchProtocol", "PostgresStores", "SyncAuth", "SystemIO", .product(name: "GRDB", package: "GRDB.swift"),
                                                   .product(name: "PostgresNIO", package: "postgres-nio"),
                                                   .product(name: "Hummingbird", package: "hummingbird"),
                                                   .product(name: "Logging", package: "swift-log"),
                                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                   // A registry of its own per server (PatchMetrics), as the sync server's.
                                                   .product(name: "Prometheus", package: "swift-prometheus"),
                                                   .product(name: "CoreMetrics", package: "swift-metrics")],
                // The OpenAPI document of its API: embedded (OpenAPIDocument.swift) and served at /v1/openapi.json.
                exclude: ["openapi.json"], plugins: ["EmbedSources"]),
        // `hybrid debug-adapter`: the Debug Adapter Protocol (editors) translated to the WebKit
        // Inspector Protocol of a `hybrid run --inspect` child, over a WebSocket. Knows no engine.
        .target(name: "DebugAdapter", dependencies: ["JSON", "ScriptSources", "SystemIO", "WebSocketTransport"]),
        // Developer tools over the contracts (the TypeScript declarations): never part of an app run.
        .target(name: "ContractTools", dependencies: ["Bridge", "JSON"]),
        // The product: the command line, and nothing that only tests or benchmarks need.
        .executableTarget(
            name: "hybrid",
            dependencies: [
                "Bridge", "ContractTools", "CurlTransport", "DebugAdapter", "HTTPServing", "HybridHost", "JSON", "PatchProtocol", "PatchServer", "Patches", "PostgresStores", "SyncAuth", "SyncProtocol", "SyncServer", "SystemIO", "Views",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["EmbedSources"]
        ),

        // Not in the product. What tests and benchmarks share: servers on 127.0.0.1 (a Hummingbird
        // server stopped gracefully, a fault-injecting proxy), the built `hybrid`, scratch folders,
        // a fresh PostgreSQL database per test in the cluster scripts/with-postgres starts, the
        // sync server every test and benchmark starts (in this process or as a child).
        .target(name: "HostTesting", dependencies: ["HTTPServing", "JSON", "ScriptSources", "SyncAuth", "SyncServer", "SystemIO", "WebSocketTransport", .product(name: "GRDB", package: "GRDB.swift"),
                                                   .product(name: "Hummingbird", package: "hummingbird"),
                                                   .product(name: "Logging", package: "swift-log"),
                                                   .product(name: "PostgresNIO", package: "postgres-nio"),
                                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        // Benchmarks beside the code they measure, as an executable of their own (`make bench`):
        // each prints our figure, its baseline measured in the same run, and the ratio.
        .executableTarget(name: "hybrid-bench",
                          dependencies: ["CJavaScriptCore", "HybridHost", "Engine", "Bridge", "JSON", "KeyValueStore", "PatchProtocol", "PatchServer", "Patches", "Persistence", "CurlTransport", "Networking",
                                         "Storage", "Sync", "SyncAuth", "SyncClient", "SyncProtocol", "SyncServer", "SystemIO", "HostTesting", "Views", "WebSocketTransport",
                                         .product(name: "GRDB", package: "GRDB.swift"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Hummingbird", package: "hummingbird"),
                                         .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                                         .product(name: "NIOHTTP1", package: "swift-nio")],
                          path: "Benchmarks",
                          // The JS benchmarks (`web/url.js`) that run under node and `hybrid run`, and the
                          // plots BENCHMARKS.md shows (`figures/`).
                          exclude: ["web", "figures"]),

        // Fuzzing (`make fuzz`), beside the product like the benchmarks: one harness per parser of
        // untrusted input in FuzzTargets, which the corpus replay tests share, and the executable
        // libFuzzer drives (built with -sanitize=fuzzer,address; ARCHITECTURE.md, "Fuzzing").
        .target(name: "FuzzTargets", dependencies: ["Bridge", "CurlTransport", "Engine", "HTTPCaching", "JSON", "PatchProtocol", "Patches", "Persistence",
                                                    "SyncAuth", "SyncProtocol", "SystemIO", "Views",
                                                    // The token target signs with keys of its own, not through SyncAuth.
                                                    .product(name: "Crypto", package: "swift-crypto")],
                path: "Fuzz/Targets"),
        // libFuzzer's LLVMFuzzerRunDriver, declared only: -sanitize=fuzzer links it.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "hybrid-fuzz", dependencies: ["CLibFuzzer", "FuzzTargets", "SystemIO"], path: "Fuzz/Driver"),

        // Each test target is named after the module it tests.
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "TextEncodingsTests", dependencies: ["TextEncodings"]),
        .testTarget(name: "DebugAdapterTests", dependencies: ["DebugAdapter", "HostTesting", "JSON", "ScriptSources", "SystemIO"]),
        .testTarget(name: "ScriptSourcesTests", dependencies: ["ScriptSources", "HostTesting", "JSON", "SystemIO"], exclude: ["Fixtures"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "HostTesting", "JSON", "ScriptSources", "SystemIO"]),
        .testTarget(name: "BridgeTests", dependencies: ["HostTesting", "SystemIO", "Bridge", "Engine", "JSON", "WebPlatform"], exclude: ["Fixtures", "JSONSchemaTestSuite"]),
        .testTarget(name: "ContractToolsTests", dependencies: ["HostTesting", "SystemIO", "ContractTools", "Bridge", "JSON"]),
        .testTarget(name: "DeviceTests", dependencies: ["HostTesting", "Device", "Bridge", "JSON", "SystemIO"]),
        .testTarget(name: "HybridHostTests", dependencies: ["HybridHost", "Bridge", "Engine", "JSON", "HostTesting", "ScriptSources", "SystemIO", "WebPlatform", "WebSocketTransport",
                                                         .product(name: "Hummingbird", package: "hummingbird"),
                                                         .product(name: "GRDB", package: "GRDB.swift")],
                    exclude: ["Fixtures", "tmux-repl.sh"]),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "JSON", "HostTesting", "SystemIO"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Bridge", "JSON", "Persistence", "HostTesting"]),
        .testTarget(name: "KeyValueStoreTests", dependencies: ["KeyValueStore", "Persistence", "JSON", "HostTesting",
                                                              .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Bridge", "JSON", "HostTesting", "SystemIO"], exclude: ["Goldens", "Conformance", "tmux-interactive.sh"]),
        .testTarget(name: "NetworkingTests", dependencies: ["SystemIO", "Networking", "CurlTransport", "HTTPCaching", "HybridHost", "Bridge", "JSON", "HostTesting", "WebSocketTransport",
                                                         .product(name: "Hummingbird", package: "hummingbird"),
                                                         .product(name: "NIOCore", package: "swift-nio"),
                                                         .product(name: "NIOPosix", package: "swift-nio"),
                                                         .product(name: "NIOHTTP1", package: "swift-nio"),
                                                         .product(name: "NIOWebSocket", package: "swift-nio"),
                                                         .product(name: "NIOSSL", package: "swift-nio-ssl")],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "SyncAuth", "SyncClient", "SyncProtocol", "HostTesting", "SystemIO", "Storage", "Persistence", "SyncServer", "CurlTransport", "HybridHost", "Bridge", "JSON",
                                                   .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Hummingbird", package: "hummingbird")]),
        .testTarget(name: "PatchesTests", dependencies: ["PatchProtocol", "Patches", "HybridHost", "Bridge", "Engine", "JSON", "HostTesting", "ScriptSources", "SystemIO",
                                                       // The end-to-end rollout runs the real server beside the devices.
                                                       "PatchServer", "SyncAuth",
                                                       .product(name: "Hummingbird", package: "hummingbird"),
                                                       .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "PatchProtocolTests", dependencies: ["PatchProtocol", "JSON"]),
        .testTarget(name: "PatchServerTests", dependencies: ["PatchServer", "PatchProtocol", "SyncAuth", "JSON", "HostTesting", "SystemIO", "HTTPServing", "CurlTransport",
                                                           .product(name: "Hummingbird", package: "hummingbird"),
                                                           .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "SyncAuthTests", dependencies: ["SyncAuth", "JSON", "HostTesting", "SystemIO"]),
        .testTarget(name: "HTTPServingTests", dependencies: ["HTTPServing", "HostTesting", "JSON", .product(name: "Hummingbird", package: "hummingbird"),
                                                          .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "SyncServerTests", dependencies: ["SyncServer", "HTTPServing", "PostgresStores", "SyncAuth", "SyncProtocol", "JSON", "HostTesting", "SystemIO", .product(name: "GRDB", package: "GRDB.swift"),
                                                           .product(name: "Hummingbird", package: "hummingbird"),
                                                           .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "HostTesting", "SystemIO"]),
        .testTarget(name: "SystemIOTests", dependencies: ["SystemIO", "HostTesting"]),
        .testTarget(name: "HostTestingTests", dependencies: ["HostTesting", "SystemIO", .product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
