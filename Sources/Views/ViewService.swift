import Bridge
import JSON

/// The `view` target (contract `services/view.json`): mounts a JSON view, updates it from
/// data or a JSON Patch, and hands events (presses, quit) to JS through the `nextEvent` long-poll.
///
/// ```js
/// await Hybrid.call("view", "mount", {tree, data: {tasks}});
/// await Hybrid.call("view", "update", {patch: [{op: "replace", path: "/tasks/0/done", value: true}]});
/// const event = await Hybrid.call("view", "nextEvent");   // {type: "press", id, handler}
/// ```
///
/// Each registry holds one session, so each app run has its own view.
public struct ViewService: BridgeService {
    public let target = "view"
    let session = ViewSession()

    public init() {}

    public var actions: [String: ServiceAction] {
        let session = self.session
        return [
            "mount": .inline(ViewMountParams.self) { call, params in try Self.mount(params, session, nodeLimit: call.app.quotas.viewNodes) },
            "update": .inline(ViewUpdateParams.self) { _, params in try Self.update(params, session) },
            "nextEvent": .worker { _ in
                guard let event = await session.events.next() else {
                    throw BridgeError(.cancelled, "view.nextEvent was cancelled")
                }
                return event
            },
            "simulate": .inline(ViewSimulateParams.self) { _, params in try Self.simulate(params, session) },
            "frame": .inline { _ in
                guard let frame = session.frame() else { throw Self.notMounted }
                return ["text": .string(frame.text), "styles": .string(frame.styles),
                        "width": .number(Double(frame.width)), "height": .number(Double(frame.height)),
                        "focus": frame.focus.map(JSONValue.string) ?? .null,
                        "spoken": session.spoken().map { JSONValue.array($0.map(JSONValue.string)) } ?? .null]
            },
            "unmount": .inline { _ in
                session.unmount()
                return [:]
            },
        ]
    }

    static let notMounted = BridgeError.failed(reason: "not-mounted", "no view is mounted; call view.mount first")

    static func mount(_ params: ViewMountParams, _ session: ViewSession, nodeLimit: Int) throws(BridgeError) -> JSONValue {
        let spec: ViewSpec
        do {
            spec = try ViewDecoder.decode(params.tree)
        } catch {
            throw BridgeError.badParams("/tree" + error.path, error.message)
        }
        let mounted: ViewSession.Mounted
        do {
            mounted = try session.mount(spec: spec, data: params.data, width: params.width, height: params.height,
                                        output: params.output.rawValue, nodeLimit: nodeLimit, accessible: params.accessible)
        } catch {
            throw tooLarge(error) ?? BridgeError.badParams("/tree" + error.path, error.message)
        }
        return ["width": .number(Double(mounted.width)), "height": .number(Double(mounted.height)),
                "nodes": .number(Double(mounted.nodes)), "output": .string(mounted.output.rawValue), "text": .string(mounted.text)]
    }

    static func update(_ params: ViewUpdateParams, _ session: ViewSession) throws(BridgeError) -> JSONValue {
        let updated: ViewSession.Updated
        do {
            updated = switch params {
            case .data(let data): try session.update(data: data, patch: nil)
            case .patch(let patch): try session.update(data: nil, patch: .array(patch))
            }
        } catch {
            switch error {
            case .notMounted: throw notMounted
            case .patch(let e): throw BridgeError.badParams("/patch" + e.path, e.message)
            case .view(let e): throw tooLarge(e) ?? BridgeError.badParams("/data", "the view cannot show this data: \(e)")
            }
        }
        let dirty: [JSONValue] = updated.dirty.map {
            ["x": .number(Double($0.x)), "y": .number(Double($0.y)), "width": .number(Double($0.width)), "height": .number(Double($0.height))]
        }
        return ["changedNodes": .number(Double(updated.changedNodes)), "dirty": .array(dirty), "bytes": .number(Double(updated.bytes))]
    }

    /// `E_TOO_LARGE` for a view that expanded past the app's `viewNodes` quota: the view and its
    /// data are well formed, there is too much of it (as params past the bridge's limits are).
    /// `details.path` points at the node in the view where it overflowed, usually a list.
    static func tooLarge(_ error: ViewDecodingError) -> BridgeError? {
        guard let limit = error.nodeLimit else { return nil }
        return BridgeError(.tooLarge, error.message,
                           details: ["quota": "viewNodes", "limit": .number(Double(limit)), "path": .string("/tree" + error.path)])
    }

    static func simulate(_ params: ViewSimulateParams, _ session: ViewSession) throws(BridgeError) -> JSONValue {
        switch params {
        case .press(let id):
            do {
                return ["event": try session.press(id: id)]
            } catch {
                switch error {
                case .notMounted: throw notMounted
                case .noSuchNode(let id): throw BridgeError.badParams("/id", "no node has the id \"\(id)\"")
                case .noHandler(let id): throw BridgeError.badParams("/id", "node \"\(id)\" has no press handler (on.press)")
                case .notScrollable: throw BridgeError.badParams("/id", "unexpected simulate failure")
                }
            }
        case .wheel(let id, let x, let y, let delta):
            do {
                let offset = try session.wheel(id: id, x: x, y: y, delta: delta)
                return ["event": .null, "offset": offset.map { .number(Double($0)) } ?? .null]
            } catch {
                switch error {
                case .notMounted: throw notMounted
                case .noSuchNode(let id): throw BridgeError.badParams("/id", "no node has the id \"\(id)\"")
                case .notScrollable(let id), .noHandler(let id):
                    throw BridgeError.badParams("/id", "node \"\(id)\" does not scroll; expected a scroll node or a list with a height")
                }
            }
        case .key(let key):
            guard session.frame() != nil else { throw notMounted }
            return ["event": session.key(key) ?? .null]
        }
    }
}
