import Bridge

// The params of the `patch` target's actions (contract `services/patch.json`). Only `check` takes
// any; `ready`, `current` and `history` read none.

/// `patch.check`.
struct PatchCheckParams: ActionParams {
    /// The patch endpoint; its host needs a `network:HOST` grant.
    let url: String
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        url = try params.required("url")
        timeoutMs = try params.optional("timeoutMs") ?? 30_000
    }
}
