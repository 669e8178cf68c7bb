import CJavaScriptCore
import Glibc
import JSON
import ScriptSources
import SystemIO

/// Puts the runtime into a fresh context: timers, `console`, `require`, all built on a few native
/// functions. The JS halves live in `js/runtime/` and are embedded at build time
/// (``RuntimeScripts``).
enum RuntimeInstaller {
    static func install(into context: ScriptContext, engine: JSEngine) {
        let native = context.makeObject()
        let output = engine.options.output

        context.setFunction(native, "print") { args in
            let fd = Int32(JSValueToNumber(args.context.ref, args[0], nil))
            let text = args.context.stringify(args[1])
            if let output { output(fd, text) } else { StandardStreams.write(text, to: fd) }
            return nil
        }
        context.setFunction(native, "now") { args in
            args.context.number(Double(MonotonicClock.now()) / 1_000_000)
        }
        context.setFunction(native, "dirname") { args in
            args.context.string(FileSystem.directory(of: args.context.stringify(args[0])))
        }
        context.setFunction(native, "readFile") { args in
            do {
                return args.context.string(try FileSystem.text(atPath: args.context.stringify(args[0])))
            } catch {
                throw NativeFunctionError("Cannot read \(error)", name: "Error")
            }
        }
        context.setFunction(native, "compileModule") { args in
            try compileModule(args.context.stringify(args[0]), filename: args.context.stringify(args[1]), in: args.context)
        }
        installModuleLoader(into: context, native: native)
        // Read once by modules.js while it installs the registry.
        if engine.options.hotReload { context.set(native, "hotReload", context.boolean(true)) }

        installTimers(into: context, native: native, engine: engine)
        installBytesGuard(into: context, native: native)
        installStackMapping(into: context, native: native)
        for (name, source) in RuntimeScripts.engine {
            do {
                try context.runPrelude(source, url: "hybrid:\(name)", native: native)
            } catch {
                preconditionFailure("runtime script \(name) failed: \(error)")
            }
        }
        context.modules = context.object(context.get(context.global, "__hybridModules"))
        context.protect(native)
        context.runtimeNative = native
    }

    /// Compiles CommonJS-shaped code into the module wrapper function, for `filename`.
    /// A map carried inline (a signed patch's TypeScript or ES module, compiled as
    /// `FILE?patch=N`) is registered for `filename`, so that its frames name the author's lines.
    static func compileModule(_ code: String, filename: String, in context: ScriptContext) throws -> JSValueRef {
        var source = code
        if filename.contains("?patch="), source.contains("//# sourceMappingURL=data:application/json;base64,") {
            let (code, map) = ModuleTransformer.splitInlineMap(source)
            if let map, let parsed = try? SourceMap(json: map, location: filename) {
                source = code
                context.sourceMaps.register(url: filename, map: parsed, firstLineColumnOffset: ScriptContext.moduleWrapperPrefix.utf16.count)
            }
        }
        if source.hasPrefix("#!") { source = "//" + source.dropFirst(2) }
        // The wrapper shares line 1 with the module's first line, so line numbers stay true.
        context.moduleURLs.insert(filename)
        let wrapped = ScriptContext.moduleWrapperPrefix + source + "\n})"
        do {
            return try context.evaluateKeepingException(wrapped, url: filename)
        } catch let thrown as ThrownJSValue {
            context.locateSyntaxError(thrown.value, source: source, url: filename)
            throw thrown
        }
    }

    /// A `toJSON` getter on every typed array and `ArrayBuffer` (through their prototypes) that
    /// throws while the value walk has JavaScriptCore write JSON text, and is `undefined` otherwise,
    /// so that `JSON.stringify` from JS is unchanged. It can be neither deleted nor redefined.
    static func installBytesGuard(into context: ScriptContext, native: JSObjectRef) {
        guard let flag = context.view(of: context.bytesGuard) else { preconditionFailure("cannot map the bytes guard") }
        context.set(native, "bytesGuard", flag)
        do {
            try context.runPrelude("""
                const flag = native.bytesGuard;
                delete native.bytesGuard;
                const refusal = { bytes: true };
                const guard = { get() { if (flag[0] !== 0) throw refusal; return undefined; }, enumerable: false, configurable: false };
                Object.defineProperty(Object.getPrototypeOf(Uint8Array.prototype), "toJSON", guard);
                Object.defineProperty(ArrayBuffer.prototype, "toJSON", guard);
                """, url: "hybrid:bytes-guard", native: native)
        } catch {
            preconditionFailure("the bytes guard failed: \(error)")
        }
    }

    /// `native.mapStack(stack)`: a JavaScriptCore stack with its locations put right (source
    /// maps, line 1's wrapper), for the runtime scripts that print stacks (the test harness).
    /// `error.stack` itself stays as JavaScriptCore wrote it, as node leaves it without
    /// `--enable-source-maps`.
    static func installStackMapping(into context: ScriptContext, native: JSObjectRef) {
        context.setFunction(native, "mapStack") { args in
            guard JSValueIsString(args.context.ref, args[0]) else { return args[0] }
            return args.context.string(args.context.mapStack(args.context.stringify(args[0])))
        }
    }

    /// The engine's side of the timers; `js/runtime/globals.js` makes node's `setTimeout`,
    /// `setInterval` and their `Timeout` objects of it. `native.startTimer(fire, delay, repeats,
    /// id, timeout)` schedules `fire(timeout)` and returns the timer's id (`id` 0 for a new one,
    /// else that of a fired timer started again); `native.clearTimer(id)`, `native.refTimer(id,
    /// keepsAlive)` and `native.refreshTimer(id)` (false when not scheduled) touch only timers JS set.
    static func installTimers(into context: ScriptContext, native: JSObjectRef, engine: JSEngine) {
        let number = { (args: NativeArguments, index: Int) -> Double in
            index < args.count ? JSValueToNumber(args.context.ref, args[index], nil) : .nan
        }
        // Only a number that can be an id is looked up.
        let timerID = { (args: NativeArguments) -> Int? in
            let id = number(args, 0)
            return id.isFinite && abs(id) < 9.0e15 ? Int(id) : nil
        }
        context.setFunction(native, "startTimer") { args in
            guard let function = args.context.object(args[0]), JSObjectIsFunction(args.context.ref, function) else {
                throw NativeFunctionError("startTimer: expected a function as the first argument")
            }
            let delay = number(args, 1)
            let repeats = args.count > 2 && JSValueToBoolean(args.context.ref, args[2])
            let reusing = Int(exactly: number(args, 3))
            let extra = args.count > 4 ? (4..<args.count).map { args[$0] } : []
            let id = engine.addTimer(function, delayMs: delay.isNaN ? 0 : delay, repeats: repeats, arguments: extra, reusing: reusing)
            return args.context.number(Double(id))
        }
        context.setFunction(native, "clearTimer") { args in
            if let id = timerID(args) { engine.clearScriptTimer(id) }
            return nil
        }
        context.setFunction(native, "refTimer") { args in
            if let id = timerID(args) { engine.setScriptTimerKeepsAlive(id, args.count > 1 && JSValueToBoolean(args.context.ref, args[1])) }
            return nil
        }
        context.setFunction(native, "refreshTimer") { args in
            args.context.boolean(timerID(args).map(engine.refreshScriptTimer) ?? false)
        }
    }
}
