import Engine
import Glibc
import JSON
import SystemIO

/// One group of web platform globals: the script under `js/web/` that defines them and the native
/// functions it calls, made when the group first loads.
struct WebGlobalGroup {
    /// The script's name under `js/web/`, without `.js`.
    var name: String
    /// The globals the script defines; each is an accessor on `globalThis` until the group loads.
    var globals: [String]
    /// Values the script hands to other groups' scripts (`internals.provide`), which no program sees.
    var provides: [String] = []
    /// The native functions its script receives on `native`, by name.
    var natives: [String: NativeFunctionBody] = [:]
}

/// The web platform's globals (`URL`, `TextEncoder`, `structuredClone`, `localStorage`, ...),
/// as their WHATWG and W3C specifications define them, installed into an app's context without
/// a `Hybrid.` prefix. Installing costs one accessor per name: a group's script runs on the first
/// read of one of its globals (`js/web/install.js`).
public struct WebPlatform {
    let groups: [WebGlobalGroup]

    public init(options: WebPlatformOptions = WebPlatformOptions()) {
        groups = WebPlatform.groups(options: options)
    }

    /// The globals this platform defines, by name.
    public var globalNames: [String] { groups.flatMap(\.globals) }

    /// Installs the accessors into `context`; on the JS thread, before the app's main module runs.
    public func install(into context: ScriptContext) throws(ScriptError) {
        let native = context.makeObject()
        let list = groups.map { group -> JSONValue in
            .object(["name": .string(group.name), "globals": .array(group.globals.map { .string($0) }),
                     "provides": .array(group.provides.map { .string($0) })])
        }
        context.set(native, "groups", context.jsValue(from: .array(list)))
        // The run's time origin (HR-Time): now, on the monotonic clock for `performance.now()` and
        // events' timeStamp, and on the wall clock, to the microsecond, for `performance.timeOrigin`.
        let origin = MonotonicClock.now()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let timeOrigin = Double(wall.tv_sec) * 1000 + Double(wall.tv_nsec / 1000) / 1000
        context.set(native, "timeOrigin", context.number(timeOrigin))
        context.setFunction(native, "now") { args in
            args.context.number(Double(MonotonicClock.now() &- origin) / 1_000_000)
        }
        let byName = Dictionary(uniqueKeysWithValues: groups.map { ($0.name, $0) })
        let sources = Dictionary(uniqueKeysWithValues: WebPlatformScripts.sources.map { ($0.name, $0.source) })
        context.setFunction(native, "load") { args in
            let name = args.context.stringify(args[0])
            guard let group = byName[name], let source = sources["\(name).js"] else {
                throw NativeFunctionError("no web platform group named \(name)")
            }
            let groupNative = args.context.makeObject()
            for (key, body) in group.natives { args.context.setFunction(groupNative, key, body) }
            let function = try args.context.evaluate("(function (native, define, internals) {" + source + "\n})", url: "hybrid:web/\(name).js")
            guard let body = args.context.object(function) else { return nil }
            try args.context.call(body, [groupNative, args[1], args[2]])
            return nil
        }
        guard let installer = sources["install.js"] else { preconditionFailure("js/web/install.js is not embedded") }
        try context.runPrelude(installer, url: "hybrid:web/install.js", native: native)
    }
}
