import Foundation
import Testing
import JSON
@testable import Bridge

@Test("scratch") func scratch() throws {
    var contracts: [JSONValue] = []
    for file in ["services/device.json", "services/bridge.json"] {
        if let text = try? String(contentsOfFile: "/work/main/" + file, encoding: .utf8) { contracts.append(try JSONParser.parse(text)) }
    }
    let out = TypeScriptDeclarations.generate(contracts: contracts)
    try out.write(toFile: "/tmp/hybrid.d.ts", atomically: true, encoding: .utf8)
}
