import Foundation
import JSON
import Testing

@testable import ContractTools

@Suite("TypeScript declarations of the JS clients")
struct ClientDeclarationTests {
    static let clock = #"""
        {"target": "clock", "version": "1.0.0", "description": "Time.",
         "client": {"property": "clock", "description": "Time, as methods.", "methods": ["now", "sleep"],
                    "members": {"ticks": {"description": "Calls so far.", "type": "() => number"}}},
         "actions": {"now": {"description": "Now.", "params": {}, "result": {"type": "number"}, "errors": []},
                     "sleep": {"description": "Waits.", "params": {"type": "object", "required": ["ms"], "properties": {"ms": {"type": "number"}}},
                               "result": {"type": "null"}, "errors": ["E_CANCELLED"]},
                     "zone": {"description": "Not a method.", "params": {}, "result": {"type": "string"}, "errors": []}}}
        """#

    @Test("a contract's client becomes <Property>Client, its methods typed by the actions it names, and a member of HybridAPI")
    func clientInterface() throws {
        let output = TypeScriptDeclarations.generate(contracts: [try JSONParser.parse(Self.clock)])
        #expect(output.contains("""
            /** `Hybrid.clock`, the JS client of the clock target (services/clock.json). */
            export interface ClockClient {
              /** Now. */
              now(...args: CallArguments<"clock", "now">): Promise<ResultOf<"clock", "now">>;
              /** Waits. */
              sleep(...args: CallArguments<"clock", "sleep">): Promise<ResultOf<"clock", "sleep">>;
              /** Calls so far. */
              readonly ticks: () => number;
            }

            """))
        #expect(output.contains("  /** Time, as methods. */\n  readonly clock: ClockClient;\n"))
        #expect(!output.contains("zone(") && TypeScriptDeclarationsTests.unbalancedBracket(in: output) == nil)
    }

    @Test("a target without a client section has no member on Hybrid, whatever it is called")
    func noClientSection() throws {
        let services = TypeScriptDeclarationsTests.repositoryRoot.appendingPathComponent("services")
        guard case .object(var kv) = try JSONParser.parse(String(contentsOf: services.appendingPathComponent("kv.json"), encoding: .utf8)) else {
            Issue.record("services/kv.json is not an object")
            return
        }
        #expect(TypeScriptDeclarations.generate(contracts: [.object(kv)]).contains("  readonly kv: KvClient;\n"))
        kv["client"] = nil
        let output = TypeScriptDeclarations.generate(contracts: [.object(kv)])
        #expect(!output.contains("readonly kv") && !output.contains("KvClient"))
    }

    @Test("the hand-written part is copied in before `declare global`, and generated types leave its names alone")
    func declaredPart() throws {
        let declared = """
            // By hand.

            export interface HybridAPI {
              readonly args: readonly string[];
            }
            export interface ClockClient2 {}
            export type ClockNowParams = never;

            declare global {
              class ClockZoneResult {
                constructor(at?: number);
              }
              var clockZones: ClockZoneResult[];
              namespace Deep {
                interface NotGlobal {}
              }
            }


            """
        let output = TypeScriptDeclarations.generate(contracts: [try JSONParser.parse(Self.clock)], declared: declared)
        #expect(output.contains("}\n\n// By hand.\n\nexport interface HybridAPI {\n  readonly args: readonly string[];\n}\n"
            + "export interface ClockClient2 {}\nexport type ClockNowParams = never;\n\ndeclare global {\n"))
        #expect(output.contains("export type ClockNowParams2 = unknown;\n"))
        #expect(output.contains("export interface ClockClient {"))
        // A global the block declares is left alone too.
        #expect(output.contains("export type ClockZoneResult2 = string;\n"))
        #expect(TypeScriptDeclarations.Generator.declaredNames(in: declared)
            == ["HybridAPI", "ClockClient2", "ClockNowParams", "ClockZoneResult", "clockZones"])
    }

    @Test("the generator's source names no target: what a client looks like comes from its contract")
    func generatorNamesNoTarget() throws {
        let root = TypeScriptDeclarationsTests.repositoryRoot
        let services = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("services").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }
        #expect(services.contains("kv") && services.contains("view"))
        let sources = root.appendingPathComponent("Sources/ContractTools")
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for target in services {
                for spelling in ["\"\(target)\"", "Hybrid.\(target)", "services/\(target).json", "\\\"\(target)\\\""] {
                    #expect(!text.contains(spelling), "\(file) names \(spelling)")
                }
            }
        }
    }
}
