import HostTesting
import JSON
import ScriptSources
import SystemIO
import Testing

/// The reverse lookup a debugger needs: where a breakpoint set on a line of the original file
/// goes in the generated code.
@Suite("source maps, original to generated")
struct SourceMapGeneratedTests {
    // Generated line 0 from original line 0; line 1 from original line 1 at columns 0 and 4;
    // line 3 from original line 3; original line 2 maps nowhere (a type, a comment).
    static let map: SourceMap = try! SourceMap(["version": 3, "sources": ["/app/a.ts"], "names": [], "mappings": "AAAA;AACA,IAAI;;AAEA"],
                                               location: "/app/a.ts")

    @Test("a line's first generated position is its lowest generated line and column")
    func firstPosition() {
        #expect(Self.map.generated(source: "/app/a.ts", line: 0)! == (0, 0))
        #expect(Self.map.generated(source: "/app/a.ts", line: 1)! == (1, 0))
        #expect(Self.map.generated(source: "/app/a.ts", line: 3)! == (3, 0))
    }

    @Test("a line nothing maps from moves to the next line that has code, within the slack")
    func movesDown() {
        #expect(Self.map.generated(source: "/app/a.ts", line: 2)! == (3, 0))
        #expect(Self.map.generated(source: "/app/a.ts", line: 2, slack: 0) == nil)
        #expect(Self.map.generated(source: "/app/a.ts", line: 4) == nil, "past the last mapped line")
    }

    @Test("another source, or one the map does not name, finds nothing")
    func otherSource() {
        #expect(Self.map.generated(source: "/app/b.ts", line: 0) == nil)
    }

    @Test("every line of a real TypeScript transform with code maps there and back to itself",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
    func roundTripThroughEsbuild() throws {
        let source = """
            interface Item { title: string; price: number }

            export function total(items: Item[]): number {
              let sum = 0;
              for (const item of items) {
                sum += item.price;
              }
              return sum;
            }

            type Id = string;
            export const first: Id = "a";
            console.log(total([{ title: "milk", price: 2 }]));

            """
        let transformer = ModuleTransformer(cacheDirectory: nil)
        let compiled = try transformer.compile(path: "/app/cart.ts", source: source, format: .module)
        let map = try SourceMap(json: try #require(compiled.sourceMapText()), location: "/app/cart.ts", source: "/app/cart.ts")
        for line in [3, 4, 5, 7, 11, 12] {
            let generated = try #require(map.generated(source: "/app/cart.ts", line: line), "line \(line)")
            #expect(map.original(line: generated.line, column: generated.column)?.line == line, "line \(line) -> \(generated)")
        }
        // The blank line after the interface has no code: its breakpoint moves to the function's.
        let moved = try #require(map.generated(source: "/app/cart.ts", line: 1))
        #expect(map.original(line: moved.line, column: moved.column)?.line == 2)
    }
}
