import Bridge
import JSON

// The params of the `patch` target's actions (contract `services/patch.json`): `check` and
// `configure` take some; `ready`, `current` and `history` read none.

/// `patch.check`.
struct PatchCheckParams: ActionParams {
    /// The patch endpoint; its host needs a `network:HOST` grant. Nil: app.json's patch server.
    let url: String?
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        url = try params.optional("url")
        timeoutMs = try params.optional("timeoutMs") ?? 30_000
    }
}

/// `patch.configure`.
struct PatchConfigureParams: ActionParams {
    /// The device token reports are sent with; null forgets it.
    let token: String?

    init(from params: ParamsReader) throws(BridgeError) {
        // The contract allows a non-empty string or null.
        token = try params.required("token", as: JSONValue.self).stringValue
    }
}
