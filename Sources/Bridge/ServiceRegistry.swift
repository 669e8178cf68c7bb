/// The explicit map target → service. No reflection: a service is reachable because it was
/// registered here, and only then.
public struct ServiceRegistry: Sendable {
    public private(set) var services: [String: any BridgeService] = [:]

    public init(_ services: [any BridgeService] = []) {
        for service in services { register(service) }
    }

    public mutating func register(_ service: any BridgeService) {
        precondition(services[service.target] == nil, "target \(service.target) registered twice")
        services[service.target] = service
    }

    public var targets: Set<String> { Set(services.keys) }

    public subscript(target: String) -> (any BridgeService)? { services[target] }

    /// Registered actions lacking a contract, and contract actions no service registers: what
    /// `hybrid contracts check` reports. Empty when they agree.
    public func disagreements(with contracts: [String: Contract]) -> [String] {
        var problems: [String] = []
        for target in services.keys.sorted() {
            let actions = services[target]!.actions
            guard let contract = contracts[target] else {
                problems.append("target \"\(target)\" is registered but services/\(target).json does not exist")
                continue
            }
            for action in actions.keys.sorted() where contract.actions[action] == nil {
                problems.append("\(target).\(action) is registered but services/\(target).json has no contract for it")
            }
            for action in contract.actions.keys.sorted() where actions[action] == nil {
                problems.append("services/\(target).json describes \(target).\(action), which no service registers")
            }
        }
        for target in contracts.keys.sorted() where services[target] == nil {
            problems.append("services/\(target).json describes target \"\(target)\", which no service registers")
        }
        return problems
    }
}
