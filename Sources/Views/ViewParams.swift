import Bridge
import JSON

// The params of the `view` target's actions (contract `services/view.json`), decoded once per
// call. `nextEvent`, `frame` and `unmount` read none.

/// `view.mount`.
struct ViewMountParams: ActionParams {
    enum Output: String, CaseIterable, ParamValue {
        case auto, terminal, plain, none
    }

    /// The view tree, free-form here: `ViewDecoder` reads it and points its errors into `/tree`.
    let tree: JSONValue
    /// What the tree's templates read: `{}` when absent.
    let data: JSONValue
    /// The terminal's columns, else 80, when nil.
    let width: Int?
    /// The content's height (the terminal's rows when interactive) when nil.
    let height: Int?
    let output: Output
    /// The screen-reader stream (``AccessibilityStream``); nil leaves it to `HYBRID_A11Y`.
    let accessible: Bool?

    init(from params: ParamsReader) throws(BridgeError) {
        tree = try params.required("tree")
        accessible = try params.optional("accessible")
        data = try params.optional("data") ?? .object([:])
        width = try params.optional("width")
        height = try params.optional("height")
        output = try params.optional("output") ?? .auto
    }
}

/// `view.update`: new data, or a JSON Patch to the current data. Exactly one of the two, which the
/// contract says in words only.
enum ViewUpdateParams: ActionParams {
    case data(JSONValue)
    /// RFC 6902 operations: `JSONPatch` reads them and points its errors into `/patch`.
    case patch([JSONValue])

    init(from params: ParamsReader) throws(BridgeError) {
        switch (try params.optional("data", as: JSONValue.self), try params.optional("patch", as: [JSONValue].self)) {
        case (let data?, nil): self = .data(data)
        case (nil, let patch?): self = .patch(patch)
        default: throw BridgeError.badParams("", "expected exactly one of data or patch")
        }
    }
}

/// `view.simulate`: a press of a node, a key, or the mouse wheel. The contract lists `id`, `key`,
/// `x`, `y` and `delta` as optional, since which are needed depends on `type`.
enum ViewSimulateParams: ActionParams {
    case press(id: String)
    case key(ViewKey)
    /// Over the scroll container with `id`, or at cell (`x`, `y`); `delta` rows, down when positive.
    case wheel(id: String?, x: Int, y: Int, delta: Int)

    enum Kind: String, CaseIterable, ParamValue {
        case press, key, wheel
    }

    init(from params: ParamsReader) throws(BridgeError) {
        switch try params.required("type", as: Kind.self) {
        case .press:
            guard let id: String = try params.optional("id") else { throw BridgeError.badParams("/id", "missing; a press names the node's id") }
            self = .press(id: id)
        case .key:
            guard let key: ViewKey = try params.optional("key") else {
                throw BridgeError.badParams("/key", "missing; expected one of \(ViewKey.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .key(key)
        case .wheel:
            guard let delta: Int = try params.optional("delta") else { throw BridgeError.badParams("/delta", "missing; expected the rows to scroll, down when positive") }
            let id: String? = try params.optional("id")
            let x: Int? = try params.optional("x")
            let y: Int? = try params.optional("y")
            guard id != nil || (x != nil && y != nil) else {
                throw BridgeError.badParams("/id", "missing; a wheel names a scroll container's id, or a cell with x and y")
            }
            self = .wheel(id: id, x: x ?? 0, y: y ?? 0, delta: delta)
        }
    }
}

extension ViewKey: ParamValue {}
