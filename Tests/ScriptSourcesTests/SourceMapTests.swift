import Glibc
import HostTesting
import JSON
import ScriptSources
import SystemIO
import Testing

@Suite("source maps")
struct SourceMapTests {
    static func map(_ mappings: String, sources: [String] = ["a.ts"], names: [String] = [], location: String? = "/app/out/a.js.map") throws -> SourceMap {
        let object: JSONValue = ["version": 3, "sources": .array(sources.map { .string($0) }), "names": .array(names.map { .string($0) }),
                                 "mappings": .string(mappings)]
        return try SourceMap(object, location: location)
    }

    // MARK: Reading

    @Test("a v3 map's fields are read: file, sourceRoot, sources resolved, sourcesContent, names")
    func readsFields() throws {
        let map = try SourceMap(json: #"""
            {"version": 3, "file": "cart.js", "sourceRoot": "", "sources": ["../src/cart.ts", null],
             "sourcesContent": ["let a = 1;"], "names": ["total"], "mappings": "AAAA"}
            """#, location: "/app/.cache/cart.js.map")
        #expect(map.file == "cart.js")
        #expect(map.sourceRoot == "")
        #expect(map.sources == ["/app/src/cart.ts", ""])
        #expect(map.sourcesContent == ["let a = 1;", nil])
        #expect(map.names == ["total"])
    }

    @Test("sources resolve against sourceRoot, then the map's folder", arguments: [
        ("../src/cart.ts", nil as String?, "/app/out/cart.js.map" as String?, "/app/src/cart.ts"),
        ("cart.ts", "../src", "/app/out/cart.js.map", "/app/src/cart.ts"),
        ("cart.ts", "../src/", "/app/out/cart.js.map", "/app/src/cart.ts"),
        ("cart.ts", "/abs/src", "/app/out/cart.js.map", "/abs/src/cart.ts"),
        ("/abs/cart.ts", "ignored", "/app/out/cart.js.map", "/abs/cart.ts"),
        ("./lib/../cart.ts", nil, "/app/cart.js", "/app/cart.ts"),
        ("file:///abs/x/cart.ts", nil, "/app/cart.js.map", "/abs/x/cart.ts"),
        ("cart.ts", "webpack://app", "/app/cart.js.map", "webpack://app/cart.ts"),
        ("webpack://app/cart.ts", nil, "/app/cart.js.map", "webpack://app/cart.ts"),
        ("cart.ts", nil, nil, "cart.ts"),
    ])
    func resolvesSources(source: String, root: String?, location: String?, expected: String) throws {
        var object: JSONObject = ["version": 3, "sources": [.string(source)], "mappings": ""]
        if let root { object["sourceRoot"] = .string(root) }
        #expect(try SourceMap(.object(object), location: location).sources == [expected])
    }

    @Test("a map read for a known file names it as its one source, whatever path its sources hold")
    func namesTheKnownSource() throws {
        // As a cached transform's map read in another run: esbuild wrote the path relative to the
        // working folder of the run that made it.
        let stale = try SourceMap(json: #"{"version": 3, "sources": ["b/tla.js"], "mappings": "AAAA"}"#,
                                  location: "/work/b/tla.js", source: "/work/b/tla.js")
        #expect(stale.sources == ["/work/b/tla.js"])
        #expect(stale.original(line: 0, column: 0)?.source == "/work/b/tla.js")
        let several = try SourceMap(json: #"{"version": 3, "sources": ["a.ts", "b.ts"], "mappings": "AAAA"}"#,
                                    location: "/app/out.js", source: "/app/x.ts")
        #expect(several.sources == ["/app/a.ts", "/app/b.ts"], "a map of several sources keeps them")
    }

    @Test("the map of a module that awaits at top level names the module's path, as a one-pass transform's does",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
    func topLevelAwaitMapNamesThePath() throws {
        let folder = TemporaryFolder(prefix: "tla-map")
        defer { folder.remove() }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        let transformer = ModuleTransformer(cacheDirectory: nil)
        for (name, source) in [("tla.mjs", "await 0;\nthrow new Error(\"boom\");\n"), ("plain.mjs", "export const a = 1;\n")] {
            let path = root + "/b/" + name
            let compiled = try transformer.compile(path: path, source: source, format: .module)
            let map = try SourceMap(json: try #require(compiled.sourceMap))
            // esbuild chains the first pass's map with the source relative to the test's working
            // folder; read against the module's own folder, that named a file that is not there.
            #expect(map.sources == [path], "\(name): \(compiled.sourceMap ?? "")")
        }
    }

    @Test("what is not a v3 map is refused with a code and what was expected", arguments: [
        (#"{"version": 2, "sources": [], "mappings": ""}"#, SourceMapError.Code.version, "version: expected 3, got 2"),
        (#"{"version": 3, "sections": [{"offset": {"line": 0, "column": 0}, "map": {}}]}"#, .indexMap, "index map (sections) is not supported"),
        (#"{"version": 3, "sources": []}"#, .malformed, "mappings: expected a string"),
        (#"{"version": 3, "sources": "a.ts", "mappings": ""}"#, .malformed, "sources: expected an array, got string"),
        (#"{"version": 3, "sources": [], "names": [1], "mappings": ""}"#, .malformed, "names[0]: expected a string, got number"),
        (#"[3]"#, .malformed, "expected an object, got array"),
        (#"{"version": 3,"#, .malformed, "not JSON"),
    ])
    func refusesWhatIsNotAMap(json: String, code: SourceMapError.Code, message: String) {
        #expect {
            try SourceMap(json: json)
        } throws: { error in
            guard let error = error as? SourceMapError else { return false }
            return error.code == code && error.message.contains(message)
        }
    }

    @Test("mappings that do not decode fail decodeMappings, naming line and segment, and lookups find nothing", arguments: [
        ("AAAA;AA", "line 2, segment 1: expected 1, 4 or 5 fields, got 2"),
        ("AAA", "line 1, segment 1: expected 1, 4 or 5 fields, got 3"),
        ("AAAA,ACAA", "line 1, segment 2: source 1 is not in sources (1)"),
        ("AAAAC", "name 1 is not in names (1)"),
        ("AAAA;A*AA", "expected a Base64 digit, got '*'"),
        ("AAAAAA", "expected 1, 4 or 5 fields, got more"),
        ("D", "the generated column is negative"),
    ])
    func refusesBadMappings(mappings: String, message: String) throws {
        let map = try Self.map(mappings, names: ["total"])
        #expect {
            try map.decodeMappings()
        } throws: { error in
            (error as? SourceMapError)?.code == .mappings && "\(error)".contains(message)
        }
        #expect(map.original(line: 0, column: 0) == nil)
    }

    // MARK: Looking up

    @Test("a lookup takes the last mapping at or before the column on that line")
    func lastMappingAtOrBefore() throws {
        // Line 0: col 0 -> a.ts 0:0, col 4 -> a.ts 0:4 "total", col 10 -> a.ts 1:2. Line 2: col 2 -> a.ts 5:0.
        let map = try Self.map("AAAA,IAAIA,MACF;;EAIF", names: ["total"])
        #expect(map.original(line: 0, column: 0) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 0))
        #expect(map.original(line: 0, column: 3) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 0))
        #expect(map.original(line: 0, column: 4) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 4, name: "total"))
        #expect(map.original(line: 0, column: 9) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 4, name: "total"))
        #expect(map.original(line: 0, column: 500) == OriginalPosition(source: "/app/out/a.ts", line: 1, column: 2))
        #expect(map.original(line: 1, column: 0) == nil, "a line with no segment maps nowhere")
        #expect(map.original(line: 2, column: 1) == nil, "before the line's first segment")
        #expect(map.original(line: 2, column: 2) == OriginalPosition(source: "/app/out/a.ts", line: 5, column: 0))
        #expect(map.original(line: 3, column: 0) == nil, "past the last line")
    }

    @Test("a segment of one field marks generated code with no original: lookups after it find nothing")
    func oneFieldSegmentIsUnmapped() throws {
        let map = try Self.map("AAAA,I,EAAE")
        #expect(map.original(line: 0, column: 3) != nil)
        #expect(map.original(line: 0, column: 4) == nil)
        #expect(map.original(line: 0, column: 5) == nil)
        #expect(map.original(line: 0, column: 6) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 2))
    }

    @Test("segments out of column order on a line are sorted before lookups")
    func unsortedSegments() throws {
        // col 10 -> 0:10, then col 2 -> 0:2 (deltas -8, -8).
        let map = try Self.map("UAAU,RAAR")
        #expect(map.original(line: 0, column: 5) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 2))
        #expect(map.original(line: 0, column: 12) == OriginalPosition(source: "/app/out/a.ts", line: 0, column: 10))
    }

    // MARK: Real esbuild output

    static let cart = """
        // A cart, typed.
        export interface Line { sku: string; price: number; quantity: number }

        type Money = number;

        export function lineTotal(line: Line): Money {
          return line.price * line.quantity;
        }

        export function total(lines: Line[]): Money {
          let sum: Money = 0;
          for (const line of lines) {
            if (line.quantity < 0) {
              throw new RangeError(`négative quantity for ${line.sku}`);
            }
            sum += lineTotal(line);
          }
          return sum;
        }

        export const checkout = (lines: Line[]): string => "paid " + total(lines);
        export const label = "🛒 cart: é"; export const size = label.length;

        """

    @Test("lookups in a map esbuild wrote find each token's place in the TypeScript, columns in UTF-16 units",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"),
          arguments: ["throw", "RangeError", "line.sku}", "line.price", "sum += ", "lineTotal(line);", "\"paid \"", "label.length"])
    func esbuildLookups(token: String) throws {
        let folder = TemporaryFolder(prefix: "source-map-tests")
        defer { folder.remove() }
        try FileSystem.write(Self.cart, to: folder.path + "/cart.ts")
        let output = try Esbuild.transform(folder.path + "/cart.ts", to: folder.path + "/out/cart.js")
        let map = try SourceMap(json: output.map, location: output.mapPath)
        #expect(map.sources == [folder.path + "/cart.ts"])
        #expect(map.sourcesContent == [Self.cart])
        let generated = try #require(Esbuild.position(of: token, in: output.code, after: "module.exports"))
        let original = try #require(Esbuild.position(of: token, in: Self.cart))
        #expect(map.original(line: generated.line, column: generated.column)
                == OriginalPosition(source: folder.path + "/cart.ts", line: original.line, column: original.column))
    }

    @Test("the map of a 2,000-line module decodes at its first lookup in milliseconds, in a debug build",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
    func decodesLargeMapQuickly() throws {
        let folder = TemporaryFolder(prefix: "source-map-tests")
        defer { folder.remove() }
        var source = "export interface Item { id: number; name: string }\n"
        for index in 0..<400 {
            source += """
                export function item\(index)(items: Item[], limit: number): string[] {
                  const picked = items.filter((item) => item.id < limit && item.name !== "x\(index)");
                  return picked.map((item) => `${item.name}:${item.id * \(index)}`);
                }

                """
        }
        try FileSystem.write(source, to: folder.path + "/big.ts")
        let output = try Esbuild.transform(folder.path + "/big.ts", to: folder.path + "/out/big.js")
        #expect(output.code.split(separator: "\n").count > 2_000)
        // The thread's CPU time, not the clock's: `swift test` runs suites side by side on two cores.
        func cpuTime() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
        }
        var best = Double.infinity
        var position: OriginalPosition?
        for _ in 0..<5 {
            let map = try SourceMap(json: output.map, location: output.mapPath)
            let started = cpuTime()
            position = map.original(line: 2_000, column: 4)
            best = min(best, cpuTime() - started)
        }
        #expect(position != nil)
        // Measured on the 2-core machine: 5 ms of CPU in a debug build, 0.2 ms optimised
        // (`swiftc -O`; reading the map's JSON, sourcesContent included, 0.36 ms). The bound is
        // for a debug build; a decoder ten times slower would pass it only there.
        print("source map: 2,000-line module, \(output.map.utf8.count) bytes of map, first lookup \(best) ms of CPU")
        #expect(best < 40, "first lookup (decode) took \(best) ms of CPU")
    }
}
