import Bridge
import HybridHost
import JSON
import Testing

@Suite("the JS clients the contracts declare")
struct RuntimeClientTests {
    @Test("Hybrid has exactly its own members and the clients the contracts declare, each with exactly its methods and members")
    func clientsMatchTheRuntime() async throws {
        let result = try await HybridProcess.run(["run", HybridProcess.fixture("scripts/clients.js")])
        #expect(result.status == 0, "\(result)")
        let shape = try JSONParser.parse(result.standardOutput)

        var expected: [String: Set<String>] = [:]
        for contract in try HostServices.contracts().values {
            guard let client = contract.client else { continue }
            expected[client.property] = Set(client.methods + client.members.map(\.name))
        }
        #expect(!expected.isEmpty)
        let names = Set(shape.objectValue?.keys ?? [])
        #expect(names == Contract.Client.reservedProperties.union(expected.keys), "\(shape)")
        for (property, members) in expected {
            let installed = Set((shape[property]?.arrayValue ?? []).compactMap(\.stringValue))
            #expect(installed == members, "Hybrid.\(property)")
        }
    }
}
