import JSON

/// The built-in `bridge` target, always allowed: `echo` returns its params unchanged (for tests and
/// measurements of the bridge itself), `describe` returns the contracts.
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
        ]
    }
}
