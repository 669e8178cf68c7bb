import CJavaScriptCore
import JSON
import ScriptSources
import SystemIO

extension RuntimeInstaller {
    /// `native.loadModule(filename, asynchronous)`: reads a module file, transforms it when it is TypeScript or an
    /// ES module (``ModuleTransformer``, cached by content), compiles it into the module wrapper,
    /// and returns `{body, format, topLevelAwait}` to the JS loader (js/runtime/modules.js).
    ///
    /// A `.js` file whose package does not say `"type"` is CommonJS, unless it does not compile as
    /// CommonJS and has `import`/`export` statements, or top-level `await` or `import.meta` and
    /// compiles as an ES module: then it is one (node's syntax detection), so an app of ES modules
    /// needs no package.json.
    static func installModuleLoader(into context: ScriptContext, native: JSObjectRef) {
        let resolver = ModuleResolver()
        // A cold start transforms the app's module files in one esbuild run, on the first miss.
        let cacheDirectory = ModuleTransformer.defaultCacheDirectory()
        // With a resolver of its own behind a lock, as the transformer may be called from any thread.
        let companions = Locked(CompanionFiles(resolver: ModuleResolver(), skipping: cacheDirectory))
        let transformer = ModuleTransformer(cacheDirectory: cacheDirectory, companions: { path in companions.withLock { $0.files(around: path) } })

        // native.resolveModule(parentFile, request, kind): node's resolution (``ModuleResolver``);
        // a failure is an Error with node's `code`. An import that finds nothing is
        // ERR_MODULE_NOT_FOUND, a require MODULE_NOT_FOUND, as node says them.
        context.setFunction(native, "resolveModule") { args in
            let parent = args.context.stringify(args[0])
            let request = args.context.stringify(args[1])
            let kind: ModuleRequestKind = args.context.stringify(args[2]) == "import" ? .import : .require
            do {
                return args.context.string(try resolver.resolve(request, from: parent, kind: kind).path)
            } catch let error as ModuleResolutionError {
                throw moduleError(error, kind: kind, in: args.context)
            }
        }

        context.setFunction(native, "loadModule") { args in
            let filename = args.context.stringify(args[0])
            let asynchronous = JSValueToBoolean(args.context.ref, args[1])
            let source: String
            do {
                source = try FileSystem.text(atPath: filename)
            } catch {
                throw NativeFunctionError("Cannot read \(error)", name: "Error")
            }
            let format: ModuleFormat
            do {
                format = try resolver.format(of: filename)
            } catch let error as ModuleResolutionError {
                throw moduleError(error, kind: .require, in: args.context)
            }
            var compiled = try transform(transformer, filename: filename, source: source, format: format, asynchronous: asynchronous, in: args.context)
            // Under --inspect a debugger reads the map from the script JavaScriptCore reports.
            let inspected = args.context.engine?.options.inspection != nil
            func code(_ compiled: CompiledSource) -> String {
                guard inspected, let map = compiled.sourceMapText(),
                      let comment = InlineSourceMap.comment(map: map, source: filename, prefixLength: ScriptContext.moduleWrapperPrefix.utf16.count) else {
                    return compiled.code
                }
                return compiled.code + "\n" + comment
            }
            var body: JSValueRef
            do {
                body = try compileModule(code(compiled), filename: filename, in: args.context)
            } catch let thrown as ThrownJSValue where format == .commonJS && SourceLanguage(filename: filename) == .javaScript
                && args.context.stringify(args.context.get(args.context.object(thrown.value) ?? args.context.global, "name")) == "SyntaxError" {
                // Node's syntax detection: import/export statements make it an ES module; so may
                // top-level await or import.meta, but then only if it compiles as one (else the
                // CommonJS error stands, as the more likely mistake).
                let certain = ModuleFormat.hasModuleSyntax(source)
                guard certain || source.contains("await") || source.contains("import.meta") else { throw thrown }
                do {
                    compiled = try transform(transformer, filename: filename, source: source, format: .module, in: args.context)
                    body = try compileModule(code(compiled), filename: filename, in: args.context)
                } catch where !certain {
                    throw thrown
                }
            }
            registerSourceMap(of: compiled, filename: filename, in: args.context)

            let result = args.context.makeObject()
            args.context.set(result, "body", body)
            args.context.set(result, "format", args.context.string(compiled.format.rawValue))
            args.context.set(result, "topLevelAwait", JSValueMakeBoolean(args.context.ref, compiled.topLevelAwait))
            if compiled.format == .module {
                args.context.set(result, "links", args.context.jsValue(from: links(of: compiled, source: source, filename: filename)))
            }
            return result
        }
    }

    /// What the loader's link step (modules.js, `link`) needs of an ES module before any module
    /// runs: `imports`, its static imports with the names each takes (``StaticImport``; none for
    /// TypeScript, whose imports may name types), `exports`, the names it exports (null when the
    /// transform's output does not say, ``ExportedNames``), and `stars`, its `export *` specifiers.
    private static func links(of compiled: CompiledSource, source: String, filename: String) -> JSONValue {
        let imports: [JSONValue] = SourceLanguage(filename: filename) == .javaScript
            ? StaticImport.find(in: source).map { request in
                .object(["specifier": .string(request.specifier), "names": .array(request.names.map { name in
                    .object(["name": .string(name.name), "line": .number(Double(name.line)), "column": .number(Double(name.column))])
                })])
            }
            : []
        let exported = ExportedNames.find(in: compiled.code)
        return .object([
            "imports": .array(imports),
            "exports": exported.map { .array($0.names.map(JSONValue.string)) } ?? .null,
            "stars": .array((exported?.starExports ?? []).map(JSONValue.string)),
        ])
    }

    /// A source esbuild refuses is a `SyntaxError` at its line and column, as JavaScriptCore's own.
    private static func transform(_ transformer: ModuleTransformer, filename: String, source: String, format: ModuleFormat,
                                  asynchronous: Bool = false, in context: ScriptContext) throws -> CompiledSource {
        do {
            return try transformer.compile(path: filename, source: source, format: format, asynchronous: asynchronous)
        } catch {
            let reason = ([error.reason] + error.more).joined(separator: "\n")
            let thrown = context.makeError(name: "SyntaxError", message: reason)
            if let line = error.line {
                context.set(thrown, "sourceURL", context.string(filename))
                context.set(thrown, "line", context.number(Double(line)))
                context.set(thrown, "column", context.number(Double(error.column ?? 1)))
            }
            throw ThrownJSValue(value: thrown)
        }
    }

    /// Stack frames in a transformed module point at the author's file: its map is registered
    /// under the module's URL, read from the cache only when a stack needs it. The map's one
    /// source is the module's own file, named as it is loaded now: a cached map may name it as
    /// another run saw it (relative to that run's working folder, as esbuild wrote it).
    private static func registerSourceMap(of compiled: CompiledSource, filename: String, in context: ScriptContext) {
        let offset = ScriptContext.moduleWrapperPrefix.utf16.count
        if let text = compiled.sourceMap {
            if let map = try? SourceMap(json: text, location: filename, source: filename) {
                context.sourceMaps.register(url: filename, map: map, firstLineColumnOffset: offset)
            }
        } else if let file = compiled.sourceMapFile {
            context.sourceMaps.register(url: filename, firstLineColumnOffset: offset) {
                (try? FileSystem.textIfPresent(atPath: file)).flatMap { $0 }.flatMap { try? SourceMap(json: $0, location: filename, source: filename) }
            }
        }
    }

    private static func moduleError(_ error: ModuleResolutionError, kind: ModuleRequestKind, in context: ScriptContext) -> ThrownJSValue {
        let thrown = context.makeError(name: "Error", message: error.message)
        let code = error.code == .moduleNotFound && kind == .import ? "ERR_MODULE_NOT_FOUND" : error.code.rawValue
        context.set(thrown, "code", context.string(code))
        return ThrownJSValue(value: thrown)
    }
}
