import JSON
import ScriptSources
import Testing

@Suite("source map registry")
struct SourceMapRegistryTests {
    /// /app/out/cart.js line 1: col 0 -> cart.ts 2:0; col 6 -> 2:6. Line 3: col 4 -> 6:4, col 10 unmapped.
    static func registry(offset: Int = 0, url: String = "/app/out/cart.js") throws -> SourceMapRegistry {
        let map = try SourceMap(["version": 3, "sources": ["../cart.ts"], "names": [], "mappings": "AAEA,MAAM;;IAIF,M"], location: "/app/out/cart.js.map")
        let registry = SourceMapRegistry()
        registry.register(url: url, map: map, firstLineColumnOffset: offset)
        return registry
    }

    @Test("JavaScriptCore frames of a registered URL are rewritten to the original, 1-based; others are left alone")
    func rewritesFrames() throws {
        let registry = try Self.registry()
        let stack = """
            total@/app/out/cart.js:3:5
            global code@/app/out/cart.js:1:7
            forEach@[native code]
            run@/app/other.js:3:5
            """
        #expect(registry.remap(stack: stack) == """
            total@/app/cart.ts:7:5
            global code@/app/cart.ts:3:7
            forEach@[native code]
            run@/app/other.js:3:5
            """)
    }

    @Test("node-style frames and plain mentions in messages are rewritten too")
    func rewritesNodeFramesAndMessages() throws {
        let registry = try Self.registry()
        #expect(registry.remap(stack: "    at total (/app/out/cart.js:3:8)\n    at /app/out/cart.js:3:5")
                == "    at total (/app/cart.ts:7:5)\n    at /app/cart.ts:7:5")
        #expect(registry.remap(stack: "patch 3: threw at /app/out/cart.js:3:5, see above") == "patch 3: threw at /app/cart.ts:7:5, see above")
    }

    @Test("a location the map does not cover (unmapped segment, no segment) is left as it is")
    func leavesUnmapped() throws {
        let registry = try Self.registry()
        #expect(registry.remap(stack: "f@/app/out/cart.js:3:12") == "f@/app/out/cart.js:3:12")
        #expect(registry.remap(stack: "f@/app/out/cart.js:2:1") == "f@/app/out/cart.js:2:1")
        #expect(registry.remap(stack: "f@/app/out/cart.js:3:2") == "f@/app/out/cart.js:3:2")
    }

    @Test("line 1's columns are counted from the wrapper the loader put before the module")
    func firstLineOffset() throws {
        let registry = try Self.registry(offset: 62)
        #expect(registry.original(StackLocation(url: "/app/out/cart.js", line: 1, column: 63)) == StackLocation(url: "/app/cart.ts", line: 3, column: 1))
        #expect(registry.original(StackLocation(url: "/app/out/cart.js", line: 1, column: 69)) == StackLocation(url: "/app/cart.ts", line: 3, column: 7))
        // Other lines have no wrapper before them.
        #expect(registry.original(StackLocation(url: "/app/out/cart.js", line: 3, column: 5)) == StackLocation(url: "/app/cart.ts", line: 7, column: 5))
    }

    @Test("URLs holding @, spaces or colons are found whole", arguments: [
        "/app/node_modules/@scope/pkg/index.js", "/app/my folder/cart.js", "hybrid:cart.js",
    ])
    func awkwardURLs(url: String) throws {
        let registry = try Self.registry(url: url)
        #expect(registry.remap(stack: "total@\(url):3:5\n    at total (\(url):3:5)") == "total@/app/cart.ts:7:5\n    at total (/app/cart.ts:7:5)")
    }

    @Test("text with no location, or with only unknown ones, comes back unchanged")
    func unchanged() throws {
        let registry = try Self.registry()
        for text in ["", "Error: boom", "at 12:30:45", "a:1:2:3", "/app/out/cart.js:x:1", "/app/out/cart.jsx:3:5", "x/app/out/cart.js:3:5"] {
            #expect(registry.remap(stack: text) == text)
        }
        #expect(SourceMapRegistry().remap(stack: "f@/app/out/cart.js:3:5") == "f@/app/out/cart.js:3:5")
    }

    @Test("registering a URL again replaces its map; unregistering forgets it")
    func replaceAndForget() throws {
        let registry = try Self.registry()
        registry.register(url: "/app/out/cart.js", map: try SourceMap(["version": 3, "sources": ["other.ts"], "mappings": ";;AAAA"], location: "/app/x.map"))
        #expect(registry.remap(stack: "f@/app/out/cart.js:3:5") == "f@/app/other.ts:1:1")
        registry.unregister(url: "/app/out/cart.js")
        #expect(!registry.contains(url: "/app/out/cart.js"))
        #expect(registry.remap(stack: "f@/app/out/cart.js:3:5") == "f@/app/out/cart.js:3:5")
    }
}
