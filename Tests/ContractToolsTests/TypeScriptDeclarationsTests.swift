import Bridge
import Foundation
import HostTesting
import JSON
import SystemIO
import Testing

@testable import ContractTools

@Suite("TypeScript declarations")
struct TypeScriptDeclarationsTests {
    // MARK: Schema to type

    @Test("each kind of schema becomes the TypeScript type that admits the same values", arguments: [
        // Types
        (##"{"type": "string"}"##, "string"),
        (##"{"type": "number"}"##, "number"),
        (##"{"type": "integer"}"##, "number"),
        (##"{"type": "boolean"}"##, "boolean"),
        (##"{"type": "null"}"##, "null"),
        (##"{"type": "string", "format": "binary"}"##, "Uint8Array"),
        (##"{"type": "string", "format": "uuid"}"##, "string"),
        (##"{"type": ["string", "null"]}"##, "string | null"),
        (##"{"type": ["integer", "number"]}"##, "number"),
        (##"{"type": ["string", "null"], "format": "binary"}"##, "Uint8Array | null"),
        (##"{}"##, "unknown"),
        (##"true"##, "unknown"),
        (##"false"##, "never"),
        (##"{"description": "anything"}"##, "unknown"),
        // Literals
        (##"{"const": "linux"}"##, ##""linux""##),
        (##"{"type": "string", "const": "linux"}"##, ##""linux""##),
        (##"{"const": -1.5}"##, "-1.5"),
        (##"{"const": null}"##, "null"),
        (##"{"enum": ["a", "b\"c", 1, true, null]}"##, ##""a" | "b\"c" | 1 | true | null"##),
        (##"{"type": "integer", "enum": [0, 8, 16]}"##, "0 | 8 | 16"),
        (##"{"type": "string", "enum": ["a", 1]}"##, ##""a""##),
        (##"{"enum": []}"##, "never"),
        // Arrays and tuples
        (##"{"type": "array", "items": {"type": "string"}}"##, "string[]"),
        (##"{"type": "array"}"##, "unknown[]"),
        (##"{"type": "array", "items": {"type": ["string", "null"]}}"##, "(string | null)[]"),
        (##"{"type": "array", "items": {"type": "array", "items": {"type": "number"}}}"##, "number[][]"),
        (##"{"type": "array", "items": false}"##, "[]"),
        (##"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false, "minItems": 2}"##,
         "[string, number]"),
        (##"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "maxItems": 2, "minItems": 1}"##,
         "[string, number?]"),
        (##"{"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1}"##, "[string, ...unknown[]]"),
        (##"{"type": "array", "prefixItems": [{"type": "string"}, {"type": ["number", "null"]}], "items": {"type": "boolean"}}"##,
         "[string?, (number | null)?, ...boolean[]]"),
        (##"{"items": {"type": "string"}}"##, "string[]"),
        // Combinations
        (##"{"oneOf": [{"type": "string"}, {"type": "number"}]}"##, "string | number"),
        (##"{"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "string"}]}"##, "string | null"),
        (##"{"anyOf": [{"type": "string"}, {}]}"##, "unknown"),
        (##"{"oneOf": [{"type": "string"}, false]}"##, "string"),
        (##"{"allOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}], "$defs": {"a": {}, "b": {}}}"##, "TestA & TestB"),
        (##"{"type": "array", "items": {"allOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]}, "$defs": {"a": {}, "b": {}}}"##,
         "(TestA & TestB)[]"),
        (##"{"allOf": [{"type": "string"}, {"type": "number"}], "oneOf": [{"const": 1}, {"const": 2}]}"##,
         "(1 | 2) & string & number"),
        (##"{"allOf": [{"type": "string"}, false]}"##, "never"),
        // References
        (##"{"$ref": "#/$defs/task", "$defs": {"task": {"type": "object"}}}"##, "TestTask"),
        (##"{"$ref": "#/definitions/due-date", "definitions": {"due-date": {"type": "string"}}}"##, "TestDueDate"),
        (##"{"$ref": "#/$defs/a%20b", "$defs": {"a b": {}}}"##, "TestAB"),
        (##"{"$id": "https://example.com/s", "$ref": "https://example.com/s#/$defs/x", "$defs": {"x": {}}}"##, "TestX"),
        (##"{"$ref": "#"}"##, "Root"),
        (##"{"$ref": "#/$defs/missing"}"##, "unknown"),
        (##"{"$ref": "other.json#/$defs/x"}"##, "unknown"),
        (##"{"$ref": "#/$defs/x/items", "$defs": {"x": {"items": {"type": "string"}}}}"##, "string"),
        (##"{"$ref": "#/$defs/x/items", "$defs": {"x": {"items": {"$ref": "#/$defs/x/items"}}}}"##, "unknown"),
        // Objects
        (##"{"type": "object"}"##, "{ [key: string]: unknown }"),
        (##"{"type": "object", "additionalProperties": true}"##, "{ [key: string]: unknown }"),
        (##"{"type": "object", "additionalProperties": false}"##, "{ [key: string]: never }"),
        (##"{"type": "object", "additionalProperties": {"type": "number"}}"##, "{ [key: string]: number }"),
        (##"{"type": "object", "additionalProperties": {"type": "object", "properties": {"a": {"type": "string"}}}}"##,
         "{\n  [key: string]: {\n    a?: string;\n  };\n}"),
        (##"{"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}"##,
         "{\n  id: string;\n  note?: string;\n}"),
        (##"{"properties": {"a": {"type": "string"}}}"##, "{\n  a?: string;\n}"),
        (##"{"required": ["a"]}"##, "{\n  a: unknown;\n}"),
        (##"{"type": "object", "properties": {"due-date": {"type": "string"}, "$id": {}, "_x1": {}, "2nd": {}}}"##,
         "{\n  \"due-date\"?: string;\n  $id?: unknown;\n  _x1?: unknown;\n  \"2nd\"?: unknown;\n}"),
        (##"{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}}"##,
         "{\n  a?: string;\n  [key: string]: number | string | undefined;\n}"),
        (##"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}}"##,
         "{\n  a: string;\n  [key: string]: number | string;\n}"),
        (##"{"type": "object", "properties": {"a": {"type": "string", "description": "The a."}}}"##,
         "{\n  /** The a. */\n  a?: string;\n}"),
        (##"{"type": "object", "properties": {"a": {"description": "Ends */ early?", "default": 1, "deprecated": true}}}"##,
         "{\n  /**\n   * Ends *\\/ early?\n   * @default 1\n   * @deprecated\n   */\n  a?: unknown;\n}"),
        (##"{"type": "object", "properties": {"o": {"type": "object", "required": ["x"], "properties": {"x": {"type": "number"}}}}}"##,
         "{\n  o?: {\n    x: number;\n  };\n}"),
        (##"{"type": "array", "items": {"type": "object", "required": ["x"], "properties": {"x": {"type": "number"}}}}"##,
         "{\n  x: number;\n}[]"),
        (##"{"type": ["object", "null"], "properties": {"a": {"type": "string"}}, "additionalProperties": false}"##,
         "{\n  a?: string;\n} | null"),
        (##"{"enum": [{"a": 1}, [1, "x"]]}"##, "{\n  a: 1;\n} | [1, \"x\"]"),
    ])
    func schemaType(schema: String, expected: String) throws {
        #expect(TypeScriptDeclarations.typeText(for: try JSONParser.parse(schema)) == expected)
    }

    @Test("type names are the PascalCase of target and action names", arguments: [
        ("storage", "Storage"), ("languageTag", "LanguageTag"), ("find_all", "FindAll"), ("find-all", "FindAll"),
        ("a b", "AB"), ("v2", "V2"), ("2fa", "_2fa"), ("", "_"),
    ])
    func pascalCase(name: String, expected: String) {
        #expect(TypeScriptDeclarations.pascalCase(name) == expected)
    }

    // MARK: Whole files

    @Test("a small contract gives exactly the expected declarations")
    func golden() throws {
        let output = TypeScriptDeclarations.generate(contracts: [try JSONParser.parse(Self.notesContract)])
        #expect(output == Self.notesDeclarations)
        if output != Self.notesDeclarations {
            // The first differing line, for a readable failure.
            let (got, want) = (output.split(separator: "\n", omittingEmptySubsequences: false),
                               Self.notesDeclarations.split(separator: "\n", omittingEmptySubsequences: false))
            if let line = zip(got, want).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record("line \(line.offset + 1): got \(line.element.0), expected \(line.element.1)")
            }
        }
    }

    @Test("the same contracts give the same text, whatever order they and their actions come in")
    func determinism() throws {
        let notes = try JSONParser.parse(Self.notesContract)
        let clock = try JSONParser.parse(#"""
            {"target": "clock", "version": "1.0.0", "description": "Time.",
             "actions": {"now": {"description": "Now.", "params": {}, "result": {"type": "number"}, "errors": []},
                         "after": {"description": "Later.", "params": {"type": "object", "required": ["ms"], "properties": {"ms": {"type": "number"}}},
                                   "result": {"type": "null"}, "errors": ["E_CANCELLED"]}}}
            """#)
        let first = TypeScriptDeclarations.generate(contracts: [notes, clock])
        #expect(TypeScriptDeclarations.generate(contracts: [notes, clock]) == first)
        #expect(TypeScriptDeclarations.generate(contracts: [clock, Self.reversingActions(of: notes)]) == first)
        #expect(TypeScriptDeclarations.generate(contracts: [Self.reversingActions(of: clock), notes]) == first)
        #expect(first.firstRange(of: "  clock: {")!.lowerBound < first.firstRange(of: "  notes: {")!.lowerBound)
        #expect(first.firstRange(of: "    after: {")!.lowerBound < first.firstRange(of: "    now: {")!.lowerBound)
        #expect(first.hasSuffix("export {};\n") && !first.hasSuffix("\n\n"))
    }

    @Test("the project's contracts give balanced declarations that name every target and action")
    func projectContracts() throws {
        let services = Self.repositoryRoot.appendingPathComponent("services")
        let files = try FileManager.default.contentsOfDirectory(atPath: services.path).filter { $0.hasSuffix(".json") }.sorted()
        var contracts = try files.map { try JSONParser.parse(String(contentsOf: services.appendingPathComponent($0), encoding: .utf8)) }
        // Names that must be quoted, and a contract with nothing in it.
        contracts.append(try JSONParser.parse(#"""
            {"target": "x-ray", "version": "0.1.0", "description": "Quoted names: */ {[(",
             "actions": {"scan-all": {"description": "Scans. ) ] }", "params": {"type": "object", "properties": {"a b": {"const": "}"}}},
                                      "result": {"type": "array", "prefixItems": [{"type": "string"}]}, "errors": ["E_FAILED"]}}}
            """#))
        contracts.append(["target": "empty", "version": "1.0.0", "description": "", "actions": [:]])
        let output = TypeScriptDeclarations.generate(contracts: contracts)

        #expect(Self.unbalancedBracket(in: output) == nil)
        for contract in contracts {
            let target = try #require(contract["target"]?.stringValue)
            #expect(output.contains("\n  " + TypeScriptType.propertyKey(target) + ": {"), "target \(target)")
            for action in contract["actions"]?.objectValue?.keys ?? [] {
                #expect(output.contains("\n    " + TypeScriptType.propertyKey(action) + ": { params: "), "action \(target).\(action)")
            }
        }
        #expect(output.contains("\n  \"x-ray\": {\n"))
        #expect(output.contains("export interface XRayScanAllParams {\n  \"a b\"?: \"}\";\n}"))
    }

    /// Where `tsc` is, when it is installed (Debian's node-typescript has one).
    static let typeScriptCompiler: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { $0 + "/tsc" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("where tsc is installed, the declarations type-check (lib ES2022, no DOM), type calls as the contracts say and the web globals as the host has them",
          .enabled(if: typeScriptCompiler != nil, "tsc is not installed"))
    func typeCheck() throws {
        let services = Self.repositoryRoot.appendingPathComponent("services")
        let files = try FileManager.default.contentsOfDirectory(atPath: services.path).filter { $0.hasSuffix(".json") }
        var contracts = try files.map { try JSONParser.parse(String(contentsOf: services.appendingPathComponent($0), encoding: .utf8)) }
        contracts.removeAll { $0["target"]?.stringValue == "notes" }
        contracts.append(try JSONParser.parse(Self.notesContract))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-dts-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let declared = try ["declared.d.ts.in", "web.d.ts.in"].map { name in
            try String(contentsOf: Self.repositoryRoot.appendingPathComponent("js/types/" + name), encoding: .utf8)
        }.joined(separator: "\n")
        try TypeScriptDeclarations.generate(contracts: contracts, declared: declared)
            .write(to: directory.appendingPathComponent("hybrid.d.ts"), atomically: true, encoding: .utf8)
        // Each @ts-expect-error fails the check if the line after it is not an error.
        try #"""
            import type { HybridError, ParamsOf, ResultOf } from "./hybrid";
            export async function uses(): Promise<void> {
              const saved = await Hybrid.call("notes", "save", { note: { title: "milk", color: "red" }, attachment: new Uint8Array(2) });
              const id: number = saved.id;
              const listed = await Hybrid.call("notes", "list");
              const title: string | undefined = listed.notes[0]?.title;
              const span: [number, number] | undefined = listed.span;
              await Hybrid.call("notes", "list", { limit: 3, "x-trace": true }, { timeoutMs: 500 });
              const subscription = Hybrid.subscribe("notes", "list", undefined, async (result) => { result.notes; },
                                                    { onError: (error: HybridError) => { const code: "E_FAILED" | string = error.code; } });
              subscription.stop();
              const params: ParamsOf<"notes", "save"> = { note: { title: "x" } };
              const result: ResultOf<"notes", "save"> = { id: 1 };
              const targets = await Hybrid.targets();
              const granted: boolean | undefined = targets["notes"]?.granted;
              const entry = await Hybrid.kv.get({ bucket: "feed", key: "1" });
              const hits: number = Hybrid.kv.cacheStats().hits;
              // @ts-expect-error: get needs a key
              await Hybrid.kv.get({ bucket: "feed" });
              const first: string | undefined = Hybrid.args[0];
              const view = await Hybrid.view.run({}, { tree: { type: "text", text: "hi" }, output: "none" });
              const reason: "quit" | "stopped" | "error" = (await view.done).reason;
              const cells: number = (await Hybrid.view.frame()).width;
              // @ts-expect-error: a node needs a type
              await Hybrid.view.mount({ text: "hi" });
              // @ts-expect-error: no such key
              await view.key("escape");
              // @ts-expect-error: args are read-only
              Hybrid.args.push("x");
              // @ts-expect-error: save's params are required
              await Hybrid.call("notes", "save");
              // @ts-expect-error: color is "red" or "green"
              await Hybrid.call("notes", "save", { note: { title: "x", color: "blue" } });
              // @ts-expect-error: no such action
              await Hybrid.call("notes", "delete");
              // @ts-expect-error: no such target
              await Hybrid.call("nowhere", "list");
              // @ts-expect-error: id is a number
              const wrong: string = saved.id;
              // @ts-expect-error: save's params are required
              Hybrid.subscribe("notes", "save", undefined, () => {});
              void [id, title, span, params, result, granted, wrong, entry, hits, first, reason, cells];
            }

            // The web platform's globals, as js/types/web.d.ts.in declares them instead of the DOM lib.
            export function web(): void {
              const url = new URL("/items?page=1", "https://shop.example");
              url.searchParams.set("page", "2");
              const pairs: [string, string][] = [...new URLSearchParams({ a: "1" })];
              const text: string = new TextDecoder("gbk", { fatal: true }).decode(new Uint8Array([0xc4, 0xe3]));
              const written: number = new TextEncoder().encodeInto("hi", new Uint8Array(4)).written;
              const token: string | null = localStorage.getItem("token");
              sessionStorage.setItem("draft", "x");
              const copy: { at: Date } = structuredClone({ at: new Date() }, { transfer: [] });
              const signal = AbortSignal.any([AbortSignal.timeout(1000), new AbortController().signal]);
              signal.addEventListener("abort", () => console.log(signal.reason), { once: true });
              addEventListener("error", (event) => console.error(event.message, event.error));
              reportError(new DOMException("late", { name: "TimeoutError" }));
              const code: 20 = DOMException.ABORT_ERR;
              const detail: number = new CustomEvent("pick", { detail: 3 }).detail;
              const measure: number = performance.measure("load", { start: performance.mark("start").startTime }).duration;
              const cores: number = navigator.hardwareConcurrency;
              queueMicrotask(() => void btoa(atob("aGk=")));
              self.dispatchEvent(new Event("ready"));
              const form = new FormData();
              form.append("upload", new File([new Blob(["hé"]), new Uint8Array([33])], "note.txt", { type: "text/plain" }));
              const upload: FormDataEntryValue | null = form.get("upload");
              // @ts-expect-error: no DOM here
              document.body;
              // @ts-expect-error: nor a window
              window.alert("hi");
              // @ts-expect-error: AbortSignals come from AbortController and AbortSignal's static methods
              new AbortSignal();
              // @ts-expect-error: Storage keeps strings
              const count: number = localStorage.getItem("count");
              void [pairs, text, written, token, copy, code, detail, measure, cores, upload, count];
            }

            """#.write(to: directory.appendingPathComponent("uses.ts"), atomically: true, encoding: .utf8)

        let process = try SpawnedProcess(try #require(Self.typeScriptCompiler),
                                         ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022", "hybrid.d.ts", "uses.ts"],
                                         directory: directory.path, output: .pipe, error: .sameAsOutput)
        let text = String(decoding: process.readOutput(), as: UTF8.self)
        #expect(process.waitForExit() == 0, "\(text)")
    }

    @Test("an output with no contracts still declares the Hybrid global")
    func noContracts() {
        let output = TypeScriptDeclarations.generate(contracts: [.null, ["target": 1]])
        #expect(output.contains("export interface HybridActions {}\n"))
        #expect(output.contains("declare global {\n  const Hybrid: HybridAPI;\n}\n"))
        #expect(Self.unbalancedBracket(in: output) == nil)
    }

    @Test("the error code union lists every bridge error code")
    func errorCodes() {
        let output = TypeScriptDeclarations.generate(contracts: [])
        for code in BridgeErrorCode.allCases {
            #expect(output.contains("\"\(code.rawValue)\""), "\(code.rawValue)")
        }
    }

    // MARK: Definitions

    @Test("a definition that refers to itself is declared once and refers to itself by name")
    func recursiveDefinition() throws {
        let contract = try JSONParser.parse(#"""
            {"target": "tree", "version": "1.0.0", "description": "",
             "actions": {"get": {"description": "", "params": {}, "errors": [], "result": {"$ref": "#/$defs/node"}}},
             "$defs": {"node": {"type": "object", "required": ["children"],
                                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}
            """#)
        let output = TypeScriptDeclarations.generate(contracts: [contract])
        #expect(output.contains("export type TreeGetResult = TreeNode;\n"))
        #expect(output.contains("export interface TreeNode {\n  children: TreeNode[];\n}\n"))
        #expect(output.components(separatedBy: "interface TreeNode ").count == 2)
    }

    @Test("a definition whose name another type already has gets a numbered name")
    func definitionNameClash() throws {
        let contract = try JSONParser.parse(#"""
            {"target": "storage", "version": "1.0.0", "description": "",
             "actions": {"find": {"description": "", "errors": [], "result": {}, "params": {"$ref": "#/$defs/findParams"}}},
             "$defs": {"findParams": {"type": "object", "required": ["table"], "properties": {"table": {"type": "string"}}}}}
            """#)
        let output = TypeScriptDeclarations.generate(contracts: [contract])
        #expect(output.contains("export type StorageFindParams = StorageFindParams2;\n"))
        #expect(output.contains("export interface StorageFindParams2 {\n  table: string;\n}\n"))
    }

    @Test("definitions of the same name but different schemas in two actions' own resources are declared apart")
    func differentDefinitionsOfOneName() throws {
        // An `$id` makes an action's schema the root its references resolve in.
        let contract = try JSONParser.parse(#"""
            {"target": "t", "version": "1.0.0", "description": "",
             "actions": {"a": {"description": "", "errors": [], "params": {},
                               "result": {"$id": "a-result", "$ref": "#/$defs/item", "$defs": {"item": {"type": "string"}}}},
                         "b": {"description": "", "errors": [], "params": {},
                               "result": {"$id": "b-result", "$ref": "#/$defs/item", "$defs": {"item": {"type": "number"}}}}}}
            """#)
        let output = TypeScriptDeclarations.generate(contracts: [contract])
        #expect(output.contains("export type TAResult = TItem;\n"))
        #expect(output.contains("export type TBResult = TItem2;\n"))
        #expect(output.contains("export type TItem = string;\n"))
        #expect(output.contains("export type TItem2 = number;\n"))
    }

    @Test("each of a contract's $defs is declared once, named after the target, even one no action refers to")
    func contractDefinitions() throws {
        let contract = try JSONParser.parse(#"""
            {"target": "shop", "version": "1.0.0", "description": "",
             "actions": {"buy": {"description": "", "errors": [], "params": {"type": "object", "properties": {"item": {"$ref": "#/$defs/item"}}},
                                 "result": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
                         "sell": {"description": "", "errors": [], "params": {"$ref": "#/$defs/item"}, "result": {"$ref": "#/actions/buy/result"}}},
             "$defs": {"item": {"type": "object", "description": "Something to sell.", "required": ["sku"], "properties": {"sku": {"type": "string"}}},
                       "spare": {"type": "number"}}}
            """#)
        let output = TypeScriptDeclarations.generate(contracts: [contract])
        #expect(output.components(separatedBy: "export interface ShopItem ").count == 2)
        #expect(output.contains("/** Something to sell. */\nexport interface ShopItem {\n  sku: string;\n}\n"))
        #expect(output.contains("export type ShopSpare = number;\n"))
        #expect(output.contains("export type ShopBuyResult = ShopItem[];\n"))
        #expect(output.contains("export type ShopSellParams = ShopItem;\n"))
        // A reference to another action's schema names that action's type.
        #expect(output.contains("export type ShopSellResult = ShopBuyResult;\n"))
        // Where a property only refers to a definition, the definition's doc comment goes with it.
        #expect(output.contains("export interface ShopBuyParams {\n  /** Something to sell. */\n  item?: ShopItem;\n}\n"))
    }

    @Test("a reference to a definition the contract lacks is unknown, as a reference into an action's own $defs without an $id")
    func definitionsResolveAgainstTheContract() throws {
        let contract = try JSONParser.parse(#"""
            {"target": "t", "version": "1.0.0", "description": "",
             "actions": {"a": {"description": "", "errors": [], "params": {"$ref": "#/$defs/gone"},
                               "result": {"$ref": "#/$defs/own", "$defs": {"own": {"type": "string"}}}}}}
            """#)
        let output = TypeScriptDeclarations.generate(contracts: [contract])
        #expect(output.contains("export type TAParams = unknown;\n"))
        #expect(output.contains("export type TAResult = unknown;\n"))
    }

    @Test("long descriptions are wrapped without starting a line with a JSDoc tag")
    func wrapping() {
        let text = String(repeating: "word ", count: 18) + "@latin " + String(repeating: "more ", count: 30)
        let lines = TypeScriptType.docComment([text], indent: "  ")
        #expect(lines.first == "  /**" && lines.last == "   */")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("   * ") && !$0.hasPrefix("   * @") })
        #expect(lines.allSatisfy { $0.count <= TypeScriptType.lineWidth + "@latin".count })
        #expect(TypeScriptType.docComment(["Short."], indent: "") == ["/** Short. */"])
        #expect(TypeScriptType.docComment(["", ""], indent: "").isEmpty)
        #expect(TypeScriptType.docComment([], indent: "").isEmpty)
    }

    // MARK: Helpers

    static let repositoryRoot = URL(fileURLWithPath: Repository.root)

    /// The contract with its actions' members in reverse order.
    static func reversingActions(of contract: JSONValue) -> JSONValue {
        guard case .object(var object) = contract, case .object(let actions)? = object["actions"] else { return contract }
        object["actions"] = .object(JSONObject(actions.members.reversed()))
        return .object(object)
    }

    /// The offset of the first bracket that closes nothing or is never closed, outside string
    /// literals and comments; nil when every `{`, `[` and `(` is closed by its partner.
    static func unbalancedBracket(in text: String) -> Int? {
        let characters = Array(text)
        var open: [(Character, Int)] = []
        var index = 0
        func at(_ i: Int) -> Character? { characters.indices.contains(i) ? characters[i] : nil }
        while index < characters.count {
            let c = characters[index]
            if c == "/", at(index + 1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if c == "/", at(index + 1) == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && at(index + 1) == "/") { index += 1 }
                guard index < characters.count else { return index }
                index += 1
            } else if c == "\"" || c == "'" || c == "`" {
                let start = index
                index += 1
                while index < characters.count, characters[index] != c {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
                guard index < characters.count else { return start }
            } else if "{[(".contains(c) {
                open.append((c, index))
            } else if let partner = Self.partners[c] {
                guard let last = open.popLast(), last.0 == partner else { return index }
            }
            index += 1
        }
        return open.first?.1
    }

    static let partners: [Character: Character] = ["}": "{", "]": "[", ")": "("]

    // MARK: The golden contract

    static let notesContract = #"""
        {
          "target": "notes",
          "version": "2.1.0",
          "description": "Short notes kept on this machine.",
          "actions": {
            "save": {
              "description": "Saves a note and answers its id.",
              "params": {
                "type": "object",
                "required": ["note"],
                "additionalProperties": false,
                "properties": {
                  "note": {"$ref": "#/$defs/note"},
                  "attachment": {"type": "string", "format": "binary", "description": "Bytes kept beside the note."}
                }
              },
              "result": {
                "type": "object",
                "required": ["id"],
                "additionalProperties": false,
                "properties": {"id": {"type": "integer", "minimum": 1}}
              },
              "errors": ["E_BAD_PARAMS", "E_FAILED"]
            },
            "list": {
              "description": "Every note, newest first.",
              "params": {
                "type": "object",
                "properties": {
                  "limit": {"type": "integer", "minimum": 1},
                  "x-trace": {"type": "boolean"}
                }
              },
              "result": {
                "type": "object",
                "description": "The notes and when they span.",
                "required": ["notes"],
                "properties": {
                  "notes": {"type": "array", "items": {"$ref": "#/$defs/note"}},
                  "span": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "minItems": 2}
                }
              },
              "errors": []
            }
          },
          "$defs": {
            "note": {
              "type": "object",
              "description": "A note.",
              "required": ["title"],
              "additionalProperties": false,
              "properties": {
                "title": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "color": {"enum": ["red", "green"], "default": "red"}
              }
            }
          }
        }
        """#

    static let notesDeclarations = #"""
        // Generated by `hybrid contracts dts` from services/*.json. Do not edit.

        /** What `error.code` says when a call is rejected. */
        export type HybridErrorCode = "E_UNKNOWN_TARGET" | "E_UNKNOWN_ACTION" | "E_BAD_PARAMS" | "E_DENIED" | "E_FAILED" | "E_TIMEOUT" | "E_CANCELLED" | "E_TOO_LARGE" | "E_SHUTDOWN" | "E_TOO_MANY";

        /** What a rejected call rejects with. */
        export interface HybridError extends Error {
          name: "HybridError";
          code: HybridErrorCode;
          target: string;
          action: string;
          /** For E_BAD_PARAMS: a JSON Pointer to the offending field of the params, such as "/records/2/title". */
          path?: string;
          /** For E_FAILED: `reason` says why the service failed. */
          details?: { reason?: string; [key: string]: unknown };
        }

        export interface CallOptions {
          /** Rejects with E_TIMEOUT after this many milliseconds; the service sees a cancellation. */
          timeoutMs?: number;
          /** Aborting rejects the call with E_CANCELLED. */
          signal?: AbortSignal;
        }

        export interface SubscribeOptions {
          /** Receives the error that ends the subscription; without it, that error goes unhandled. */
          onError?: (error: HybridError) => void;
        }

        export interface Subscription {
          /** Ends the subscription and cancels its call in flight. */
          stop(): void;
        }

        /** A JSON Schema (draft 2020-12), as a contract holds it. */
        export type JSONSchema = boolean | { [keyword: string]: unknown };

        /** One action of a target's contract, as `Hybrid.targets()` describes it. */
        export interface ActionDescription {
          description: string;
          params: JSONSchema;
          result: JSONSchema;
          errors: HybridErrorCode[];
        }

        /** One target's contract, as `Hybrid.targets()` describes it. */
        export interface TargetDescription {
          version: string;
          description: string;
          /** Whether this app may call the target: app.json grants it. */
          granted: boolean;
          actions: { [action: string]: ActionDescription };
          /** The contract's definitions, where its actions' `{"$ref": "#/$defs/name"}` resolve. */
          $defs?: { [name: string]: JSONSchema };
        }

        // notes 2.1.0 (services/notes.json)

        export interface NotesListParams {
          limit?: number;
          "x-trace"?: boolean;
        }

        /** The notes and when they span. */
        export interface NotesListResult {
          notes: NotesNote[];
          span?: [number, number];
        }

        export interface NotesSaveParams {
          /** A note. */
          note: NotesNote;
          /** Bytes kept beside the note. */
          attachment?: Uint8Array;
        }

        export interface NotesSaveResult {
          id: number;
        }

        /** A note. */
        export interface NotesNote {
          title: string;
          tags?: string[];
          /** @default "red" */
          color?: "red" | "green";
        }

        /** Every action of every target, by target and action name: what `Hybrid.call` is typed by. */
        export interface HybridActions {
          /** Short notes kept on this machine. */
          notes: {
            /** Every note, newest first. */
            list: { params: NotesListParams; result: NotesListResult; errors: never };
            /** Saves a note and answers its id. */
            save: { params: NotesSaveParams; result: NotesSaveResult; errors: "E_BAD_PARAMS" | "E_FAILED" };
          };
        }

        /** The params of `target.action`. */
        export type ParamsOf<T extends keyof HybridActions, A extends keyof HybridActions[T]> =
          HybridActions[T][A] extends { params: infer P } ? P : never;

        /** The result of `target.action`. */
        export type ResultOf<T extends keyof HybridActions, A extends keyof HybridActions[T]> =
          HybridActions[T][A] extends { result: infer R } ? R : never;

        /** A call's arguments after target and action: params may be left out when they require nothing. */
        export type CallArguments<T extends keyof HybridActions, A extends keyof HybridActions[T]> =
          {} extends ParamsOf<T, A>
            ? [params?: ParamsOf<T, A>, options?: CallOptions]
            : [params: ParamsOf<T, A>, options?: CallOptions];

        /** The global `Hybrid`: how JavaScript calls native services. */
        export interface HybridAPI {
          /** Calls `target.action` with `params`: resolves with its result, or rejects with a HybridError. */
          call<T extends keyof HybridActions, A extends keyof HybridActions[T]>(
            target: T,
            action: A,
            ...args: CallArguments<T, A>
          ): Promise<ResultOf<T, A>>;
          /**
           * Calls `target.action` again and again, handing each result to `onEvent`; when a result
           * carries `seq` (or `cursor`), the next call asks for what came after it through `since`.
           */
          subscribe<T extends keyof HybridActions, A extends keyof HybridActions[T]>(
            target: T,
            action: A,
            params: {} extends ParamsOf<T, A> ? ParamsOf<T, A> | undefined : ParamsOf<T, A>,
            onEvent: (result: ResultOf<T, A>) => void | Promise<void>,
            options?: SubscribeOptions
          ): Subscription;
          /** The contracts of every registered target, with whether this app may call it. */
          targets(): Promise<Record<string, TargetDescription>>;
          /** The class of the errors calls reject with, for `instanceof`. */
          readonly HybridError: new (fields: {
            code: HybridErrorCode;
            message: string;
            target: string;
            action: string;
            path?: string;
            details?: { reason?: string; [key: string]: unknown };
          }) => HybridError;
        }

        declare global {
          const Hybrid: HybridAPI;
        }

        export {};

        """#
}
