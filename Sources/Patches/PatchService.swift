import Bridge
import JSON

/// The `patch` target (`services/patch.json`): JS confirms the patch it runs on (`ready`), asks
/// which one that is (`current`) and what happened before (`history`), and fetches patches
/// (`check`, once the network module exists).
public struct PatchService: BridgeService {
    public let target = "patch"

    public init() {}

    public var actions: [String: ServiceAction] {
        [
            "check": .worker { call in
                throw BridgeError.failed(reason: "unavailable",
                                         "patch.check needs the network module, which this host does not have yet; drop patch files into <data dir>/patches/ instead")
            },
            "ready": .worker { call in
                let loader = try Self.loader(call)
                do throws(PatchError) {
                    let record = try loader.confirm()
                    return Self.current(loader, record: record)
                } catch {
                    throw BridgeError.failed(reason: error.code.rawValue, error.message)
                }
            },
            "current": .inline { call in
                let loader = try Self.loader(call)
                return Self.current(loader, record: loader.current.patchVersion.flatMap { v in loader.history.last { $0.patchVersion == v } })
            },
            "history": .inline { call in
                let loader = try Self.loader(call)
                return ["records": .array(loader.history.reversed().map(\.jsonValue))]
            },
        ]
    }

    static func loader(_ call: ServiceCall) throws -> PatchLoader {
        guard let loader = PatchLoaders.loader(for: ObjectIdentifier(call.app)) else {
            throw BridgeError.failed(reason: "unavailable", "patch: this app run has no patch loader")
        }
        return loader
    }

    static func current(_ loader: PatchLoader, record: PatchRecord?) -> JSONValue {
        let current = loader.current
        return [
            "patchVersion": current.patchVersion.map { .number(Double($0)) } ?? .null,
            "state": record.map { .string($0.state.rawValue) } ?? "shipped",
            "epoch": .number(Double(current.epoch)),
            "highestVersion": .number(Double(loader.highestVersion)),
        ]
    }
}
