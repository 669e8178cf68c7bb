import Bridge

// The params of the `network` target's actions (contract `services/network.json`), decoded once
// per call. `request`'s are a `NetworkRequest`, which `download` shares.

/// `network.download`: a request, and where its body goes.
struct NetworkDownloadParams: ActionParams {
    let request: NetworkRequest
    /// A path in the app's data directory, outside the host's own entries; `DownloadTarget` checks it.
    let path: String
    /// The id `progress` follows it by; a fresh one when nil.
    let requestId: String?

    init(from params: ParamsReader) throws(BridgeError) {
        request = try NetworkRequest(from: params)
        path = try params.required("path")
        requestId = try params.optional("requestId")
    }
}

/// `network.progress`.
struct NetworkProgressParams: ActionParams {
    let requestId: String
    /// The seq last seen: 0 answers with the first news.
    let since: Int
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        requestId = try params.required("requestId")
        since = try params.optional("since") ?? 0
        timeoutMs = try params.optional("timeoutMs") ?? LongPoll.defaultTimeoutMs
    }
}
