import JSON

/// The built-in `bridge` target, always allowed: `echo` returns its params unchanged (for tests and
/// measurements of the bridge itself), `describe` returns the contracts.
public struct BridgeTarget: BridgeService {
    public let target = "bridge"
    let described: JSONValue

    /// - Parameters:
    ///   - contracts: every registered target's contract.
    ///   - grants: the app's grants, to mark which targets it may call.
    public init(contracts: [String: Contract], grants: Grants) {
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
            targets[name] = [
                "version": .string(contract.version),
                "description": .string(contract.description),
                "granted": .bool(grants.allows(target: name)),
                "actions": .object(actions),
            ]
        }
        described = ["targets": .object(targets)]
    }

    public var actions: [String: ServiceAction] {
        let described = self.described
        return [
            "echo": .inline { call in call.params },
            "describe": .inline { _ in described },
        ]
    }
}
