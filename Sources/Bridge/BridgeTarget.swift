import JSON
import Synchronization

/// The built-in `bridge` target, always allowed: `echo` returns its params unchanged (for tests and
/// measurements of the bridge itself), `describe` returns the contracts, `validate` checks a value
/// against a JSON Schema with the validator contracts are checked with (declared APIs' params).
public struct BridgeTarget: BridgeService {
    public let target = "bridge"
    let contracts: [String: Contract]
    let grants: Grants

    /// - Parameters:
    ///   - contracts: every registered target's contract.
    ///   - grants: the app's grants, to mark which targets it may call.
    public init(contracts: [String: Contract], grants: Grants) {
        self.contracts = contracts
        self.grants = grants
    }

    /// Built when asked for, not at start-up: most runs never call describe.
    static func describe(_ contracts: [String: Contract], grants: Grants) -> JSONValue {
        var targets = JSONObject()
        for name in contracts.keys.sorted() {
            let contract = contracts[name]!
            var actions = JSONObject()
            for action in contract.actions.keys.sorted() {
                let a = contract.actions[action]!
                actions[action] = [
                    "description": .string(a.description),
                    "params": a.params,
                    "result": a.result,
                    "errors": .array(a.errors.map { .string($0.rawValue) }),
                ]
            }
            var target: JSONObject = [
                "version": .string(contract.version),
                "description": .string(contract.description),
                "granted": .bool(grants.allows(target: name)),
                "actions": .object(actions),
            ]
            // Where the actions' `#/$defs/...` references resolve: this object stands for the
            // contract, and keeps its definitions at the same place.
            if let definitions = contract.json["$defs"] { target["$defs"] = definitions }
            targets[name] = .object(target)
        }
        return ["targets": .object(targets)]
    }

    public var actions: [String: ServiceAction] {
        let contracts = self.contracts
        let grants = self.grants
        return [
            "echo": .inline { call in call.params },
            "describe": .inline { _ in Self.describe(contracts, grants: grants) },
            "validate": .inline { call in try SchemaCache.shared.validate(call.params) },
        ]
    }
}

/// `bridge.validate`'s compiled schemas, by their JSON text: a declared API checks every call's
/// params against the one schema it declared, compiled once.
final class SchemaCache: Sendable {
    static let shared = SchemaCache()
    private static let limit = 256
    private let validators = Mutex<[String: SchemaValidator]>([:])

    /// `{valid: true}`, or `{valid: false, path, message}` for the first violation.
    func validate(_ params: JSONValue) throws(BridgeError) -> JSONValue {
        guard let schema = params["schema"] else { throw BridgeError.badParams("/schema", "expected a JSON Schema") }
        let value = params["value"] ?? .null
        let key = JSONWriter.write(schema)
        var validator = validators.withLock { $0[key] }
        if validator == nil {
            do { validator = try SchemaValidator(schema: schema) } catch {
                throw BridgeError.badParams("/schema", "not a schema this validator compiles: \(error)")
            }
            validators.withLock { cache in
                if cache.count >= Self.limit { cache.removeAll() }
                cache[key] = validator
            }
        }
        guard let violation = validator!.firstViolation(of: value) else { return ["valid": true] }
        return ["valid": false, "path": .string(violation.path), "message": .string(violation.message)]
    }
}
