extension WebPlatform {
    /// Every group, in one list: a new global is a script under `js/web/` and a row here.
    static func groups() -> [WebGlobalGroup] {
        [
            WebGlobalGroup(name: "dom-exception", globals: ["DOMException"], provides: ["isDOMException"]),
        ]
    }
}
