// swift-tools-version: 6.0
// HybridHost: a Linux host that runs JavaScript business scripts on JavaScriptCore against native
// services over a bridge in which only JavaScript initiates calls. Layers point down:
//   hybrid (CLI) -> HybridHost -> services (Device, Storage, Views, Patches, Networking) -> Bridge -> Engine -> JSON, C modules
//   (Storage -> Persistence -> GRDB; Networking -> CurlTransport -> CCurl; Views -> CUTF8Proc)
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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Imported directly where Hummingbird servers are started and stopped (quiet logs, graceful shutdown).
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
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

        // JSON values, parsing, writing, pointers: the currency every layer above trades in.
        .target(name: "JSON"),
        // One JavaScriptCore context on one JS thread, its event loop, console and modules.
        .target(name: "Engine", dependencies: ["CJavaScriptCore", "JSON"]),
        // Envelopes, the service registry, contracts and their schema validator, grants.
        .target(name: "Bridge", dependencies: ["Engine", "JSON"]),
        // SQLite through GRDB, below the services that share it (storage, later sync).
        .target(name: "Persistence", dependencies: ["Bridge", "Engine", "JSON", "SyncProtocol", .product(name: "GRDB", package: "GRDB.swift")]),
        // What the sync server and its clients agree on: wire operations, the fold rule, batch filters.
        .target(name: "SyncProtocol", dependencies: ["JSON"]),
        // HTTP over libcurl's multi interface on one thread: below the services that share it
        // (network, later sync).
        .target(name: "CurlTransport", dependencies: ["CCurl", "Bridge", "JSON"]),
        // Services: one target each, never importing one another.
        .target(name: "Device", dependencies: ["Bridge", "JSON"]),
        .target(name: "Storage", dependencies: ["Bridge", "Engine", "Persistence", "JSON"]),
        .target(name: "Views", dependencies: ["Bridge", "CUTF8Proc", "JSON"]),
        .target(name: "Networking", dependencies: ["Bridge", "CurlTransport", "Engine", "JSON"]),
        .target(name: "Sync", dependencies: ["Bridge", "CurlTransport", "Persistence", "SyncProtocol", "JSON"]),
        // Signed hot-swap of JS modules in a running app, with rollback.
        .target(name: "Patches", dependencies: ["Bridge", "CurlTransport", "Engine", "JSON", .product(name: "Crypto", package: "swift-crypto")]),
        // Assembles an app run: manifest, grants, services, the test runner.
        .target(name: "HybridHost", dependencies: ["Engine", "Bridge", "Device", "Storage", "Views", "Patches", "Networking", "Sync", "JSON"]),
        // Benchmarks beside the code they measure; `hybrid bench` runs them.
        .target(name: "HostBenchmarks", dependencies: ["HybridHost", "Engine", "Bridge", "JSON", "CJavaScriptCore", "Persistence", "CurlTransport",
                                                 "Storage", "Sync", "SyncServer",
                                                 .product(name: "GRDBSQLite", package: "GRDB.swift"),
                                                 "FaultProxy", "LocalHTTPServer", .product(name: "Hummingbird", package: "hummingbird")],
                path: "Benchmarks"),
        // The reference sync server (`hybrid sync-server`): HTTP+JSON over Hummingbird, state in SQLite.
        .target(name: "SyncServer", dependencies: ["JSON", "SyncProtocol", .product(name: "GRDB", package: "GRDB.swift"),
                                                  .product(name: "Hummingbird", package: "hummingbird"),
                                                  .product(name: "Crypto", package: "swift-crypto"),
                                                  .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        // Test and benchmark support: a Hummingbird server on loopback, stopped gracefully.
        .target(name: "LocalHTTPServer", dependencies: [.product(name: "Hummingbird", package: "hummingbird"),
                                                       .product(name: "Logging", package: "swift-log"),
                                                       .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        // Test support: a fault-injecting HTTP proxy on 127.0.0.1 for the sync tests and benchmarks.
        .target(name: "FaultProxy"),
        // Test support: where the `hybrid` executable the tests run as a child was built.
        .target(name: "BuiltHybrid"),
        .executableTarget(
            name: "hybrid",
            dependencies: [
                "HybridHost", "HostBenchmarks", "JSON", "SyncServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "EngineTests", dependencies: ["Engine", "JSON"]),
        .testTarget(name: "BridgeTests", dependencies: ["Bridge", "Engine", "JSON"], exclude: ["Fixtures"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "Bridge", "JSON"]),
        .testTarget(name: "HybridHostTests", dependencies: ["HybridHost", "Bridge", "Engine", "JSON", "LocalHTTPServer", .product(name: "Hummingbird", package: "hummingbird")],
                    exclude: ["Fixtures"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Persistence", "Bridge", "JSON", "BuiltHybrid"]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "Bridge", "JSON", "BuiltHybrid"], exclude: ["Goldens", "tmux-interactive.sh"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "CurlTransport", "HybridHost", "Bridge", "JSON",
                                                         .product(name: "Hummingbird", package: "hummingbird"), "LocalHTTPServer"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "SyncProtocol", "FaultProxy", "BuiltHybrid", "Storage", "Persistence", "SyncServer", "CurlTransport", "HybridHost", "Bridge", "JSON",
                                                   .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "PatchesTests", dependencies: ["Patches", "HybridHost", "Bridge", "Engine", "JSON", "BuiltHybrid",
                                                       .product(name: "Hummingbird", package: "hummingbird"), "LocalHTTPServer"]),
        .testTarget(name: "SyncServerTests", dependencies: ["SyncServer", "SyncProtocol", "JSON", .product(name: "Hummingbird", package: "hummingbird"),
                                                           .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "FaultProxyTests", dependencies: ["FaultProxy", .product(name: "Hummingbird", package: "hummingbird"), "LocalHTTPServer"]),
    ]
)
