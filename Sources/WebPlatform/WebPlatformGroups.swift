import Engine

extension WebPlatform {
    /// `native.reportError(error)`: an error no "error" listener took ends the run, as an uncaught
    /// exception does.
    static var reportError: NativeFunctionBody { { args in
        args.context.engine?.fail(args.context.scriptError(from: args[0]))
        return nil
    } }

    /// Every group, in one list: a new global is a script under `js/web/` and a row here.
    static func groups(options: WebPlatformOptions) -> [WebGlobalGroup] {
        [
            // The Web IDL helpers every other group's script shares; no global of its own.
            WebGlobalGroup(name: "webidl", globals: [], provides: ["webidl"]),
            WebGlobalGroup(name: "dom-exception", globals: ["DOMException"], provides: ["isDOMException"]),
            WebGlobalGroup(name: "events",
                           globals: ["Event", "CustomEvent", "ErrorEvent", "EventTarget", "AbortController", "AbortSignal", "reportError",
                                     "addEventListener", "removeEventListener", "dispatchEvent"],
                           provides: ["signalAbort", "addAbortAlgorithm", "removeAbortAlgorithm", "isAbortSignal", "defineEventHandlers"],
                           natives: ["reportError": reportError]),
            WebGlobalGroup(name: "structured-clone", globals: ["structuredClone"]),
            WebGlobalGroup(name: "storage", globals: ["Storage", "localStorage", "sessionStorage"],
                           natives: WebStorageFunctions(options: options).natives),
            WebGlobalGroup(name: "navigator", globals: ["Navigator", "navigator"], natives: NavigatorInfo(options: options).natives),
            WebGlobalGroup(name: "performance",
                           globals: ["Performance", "PerformanceEntry", "PerformanceMark", "PerformanceMeasure", "performance"]),
            WebGlobalGroup(name: "url", globals: ["URL", "URLSearchParams"], natives: URLFunctions.natives),
            WebGlobalGroup(name: "encoding", globals: ["TextEncoder", "TextDecoder", "atob", "btoa"],
                           natives: EncodingFunctions.natives),
            // TextEncoderStream and TextDecoderStream: TransformStreams around the encoding group's codecs.
            WebGlobalGroup(name: "encoding-streams", globals: ["TextEncoderStream", "TextDecoderStream"]),
            WebGlobalGroup(name: "compression", globals: ["CompressionStream", "DecompressionStream"],
                           natives: CompressionFunctions.natives),
            WebGlobalGroup(name: "blob", globals: ["Blob", "File", "FormData"], provides: ["encodeMultipart", "isBlob"]),
            // fetch over the network service's fetch, read and cancel actions (through the bridge).
            WebGlobalGroup(name: "fetch", globals: ["Headers", "Request", "Response", "fetch"]),
            WebGlobalGroup(name: "event-source", globals: ["EventSource", "MessageEvent"]),
            // WebSocket over the network service's socket actions (SwiftNIO's client underneath).
            WebGlobalGroup(name: "websocket", globals: ["WebSocket", "CloseEvent"]),
            // WebCrypto: the frame in JS, the primitives over swift-crypto (WebCrypto*.swift).
            WebGlobalGroup(name: "crypto", globals: ["Crypto", "SubtleCrypto", "CryptoKey", "crypto"], natives: WebCryptoFunctions.natives.merging(WebCryptoFunctions.asymmetricNatives) { first, _ in first }),
            WebGlobalGroup(name: "streams",
                           globals: ["ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
                                     "ReadableStreamDefaultController", "ReadableByteStreamController", "ReadableStreamBYOBRequest",
                                     "WritableStream", "WritableStreamDefaultWriter", "WritableStreamDefaultController",
                                     "TransformStream", "TransformStreamDefaultController",
                                     "ByteLengthQueuingStrategy", "CountQueuingStrategy"],
                           provides: ["isReadableStream", "isWritableStream", "isReadableStreamLocked", "isReadableStreamDisturbed",
                                      "createReadableStream", "readableStreamFromIterable"]),
        ]
    }
}

