import Foundation
import HostTesting
import JSON
import Testing

/// A structural check of results against `services/device.json`: the top-level keys, and each
/// value's JSON type. (The bridge's schema validator checks the rest.)
enum ContractCheck {
    static let contract: JSONValue = {
        let path = Repository.path("services/device.json")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let value = try? JSONParser.parse(text) else {
            return .null
        }
        return value
    }()

    static func result(of action: String) throws -> JSONObject {
        try #require(contract["actions"]?[action]?["result"]?.objectValue, "services/device.json: no result schema for \(action)")
    }

    static func assertConforms(_ value: JSONValue, action: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = try result(of: action)
        let object = try #require(value.objectValue, "\(action): expected an object, got \(value.typeName)", sourceLocation: sourceLocation)
        let properties = try #require(schema["properties"]?.objectValue, sourceLocation: sourceLocation)
        let required = (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(Set(object.keys) == Set(properties.keys), "\(action): keys differ from the contract's properties", sourceLocation: sourceLocation)
        #expect(Set(required).isSubset(of: Set(object.keys)), "\(action): a required key is missing", sourceLocation: sourceLocation)
        for (key, member) in object {
            guard let property = properties[key] else { continue }
            let types = property["type"]?.arrayValue?.compactMap(\.stringValue) ?? property["type"]?.stringValue.map { [$0] } ?? []
            #expect(types.contains { matches(member, type: $0) }, "\(action).\(key): \(member) is not \(types)", sourceLocation: sourceLocation)
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch type {
        case "integer": value.intValue != nil
        case "number": value.numberValue != nil
        case "boolean": value.boolValue != nil
        default: value.typeName == type
        }
    }
}

@Suite("services/device.json")
struct DeviceContractTests {
    @Test("the contract names the device target and exactly the service's actions")
    func contractMatchesService() throws {
        #expect(ContractCheck.contract["target"] == "device")
        #expect(ContractCheck.contract["version"] == "1.0.0")
        let actions = try #require(ContractCheck.contract["actions"]?.objectValue)
        #expect(Set(actions.keys) == Set(service.actions.keys))
        for (name, action) in actions {
            #expect(action["params"] == ["type": "object", "additionalProperties": false], "\(name).params")
            #expect(action["errors"] == ["E_FAILED"], "\(name).errors")
            #expect(action["description"]?.stringValue?.isEmpty == false, "\(name).description")
        }
    }

    @Test("every result schema is a closed object whose properties are all required and described")
    func resultsAreClosed() throws {
        for name in service.actions.keys {
            let schema = try ContractCheck.result(of: name)
            #expect(schema["type"] == "object", "\(name)")
            #expect(schema["additionalProperties"] == false, "\(name)")
            let properties = try #require(schema["properties"]?.objectValue, "\(name)")
            #expect(schema["required"]?.arrayValue?.compactMap(\.stringValue) == properties.keys, "\(name)")
            for (key, property) in properties {
                #expect(property["description"]?.stringValue?.isEmpty == false, "\(name).\(key)")
                #expect(property["type"] != nil, "\(name).\(key)")
            }
        }
    }
}
