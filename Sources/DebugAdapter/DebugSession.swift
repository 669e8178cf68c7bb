import Glibc
import JSON
import ScriptSources
import SystemIO

/// One debugging session: the DAP requests an editor sends, translated into the WebKit Inspector
/// Protocol of the app's one JavaScriptCore context, and the inspector's events translated back.
///
/// Requests are handled one at a time, in order (``handle(_:)``); the inspector's events are
/// handled in order on a task of their own, interleaved with requests at their awaits. Positions
/// cross here: DAP's lines (1-based unless the editor says otherwise) in the files a person edits
/// (`.ts`), the inspector's 0-based lines in the JavaScript that runs, through each script's
/// source map.
actor DebugSession {
    private let writer: DAPWriter
    /// The `hybrid` executable a launch runs.
    private let executable: String

    private var inspector: InspectorClient?
    private var app: LaunchedApp?
    private var programName = "app"
    /// A launch of `hybrid test`: each test file's context is a thread of its own, in turn
    /// (``targetCreated(_:)``); an app's one context is thread 1.
    private var testRun = false
    private var threadId = 1
    /// Test files started so far; the next one's thread id.
    private var threadsStarted = 0
    /// Whether a test file's thread is running now (always, for an app).
    private var threadLive = true
    /// `configurationDone` came: each test file is let run once its breakpoints are set.
    private var configured = false
    private var lineBase = 1
    private var columnBase = 1

    /// Scripts by the inspector's id.
    private var scripts: [String: LoadedScript] = [:]
    /// Breakpoints by the file they were set in.
    private var breakpoints: [String: [SourceBreakpoint]] = [:]
    private var nextBreakpointId = 1

    private var stopOnEntry = false
    /// The next pause is the one `--inspect-brk` makes before the main module's first statement.
    private var awaitingEntry = false
    /// Why the next pause comes, when a request asked for it ("step", "pause").
    private var requestedStop: String?
    /// A `stopped` event went out for the current pause (so its resume is told as `continued`).
    private var reportedStop = false
    private var callFrames: [JSONObject] = []
    private var handles: [Int: VariableContainer] = [:]
    private var nextHandle = 1
    private var exception: (id: String, description: String, uncaught: Bool)?
    private var pauseOnExceptions = "none"
    private var terminatedSent = false
    /// Where a step in started (the stack's depth and the top frame's original file and line),
    /// and how many more steps it has taken to leave that line.
    private var stepInFrom: (depth: Int, path: String, line: Int)?
    private var stepInRepeats = 0
    /// Patched modules' scripts by the `sourceReference` their frames carry.
    private var sourceReferences: [Int: String] = [:]

    /// A breakpoint as the editor set it, and where the inspector has it.
    struct SourceBreakpoint {
        let id: Int
        let path: String
        /// 0-based, in the file the editor shows.
        let line: Int
        let condition: String?
        var inspectorId: String?
        /// 0-based, where it landed in that file.
        var actualLine: Int?
        var verified = false
        var message: String?
        /// Placed through a source map worked out ahead (the module was not loaded yet), to be
        /// checked against the host's own map when it is.
        var predicted = false
        /// Waiting for its module to load to be placed at all.
        var pending = false
        /// Where the inspector was asked to set it (0-based, in the JavaScript that runs).
        var target: (line: Int, column: Int)?
        /// Its condition is not one we can set: never placed.
        var rejected = false
    }

    /// What a variables reference stands for, until the app resumes.
    enum VariableContainer {
        /// A scope of a paused frame: its variables, set through that frame.
        case scope(objectId: String, callFrameId: String)
        case object(objectId: String, collection: Bool, callFrameId: String?)
        /// The entries of a Map or Set.
        case entries(objectId: String)
        /// One Map entry: its key and value.
        case entry(key: JSONObject, value: JSONObject)
    }

    init(writer: DAPWriter, executable: String) {
        self.writer = writer
        self.executable = executable
    }

    // MARK: - Requests

    /// Handles one request and answers it; false once the session is over (`disconnect`).
    func handle(_ request: JSONObject) async -> Bool {
        let command = request["command"]?.stringValue ?? ""
        let arguments = request["arguments"]?.objectValue ?? [:]
        do {
            switch command {
            case "initialize":
                writer.respond(to: request, body: initialize(arguments))
            case "launch":
                try await launch(arguments)
                writer.respond(to: request)
                writer.event("initialized")
            case "attach":
                guard let url = arguments["url"]?.stringValue else {
                    throw DebugAdapterError(.badArguments, "url: expected the ws:// URL `hybrid run --inspect` printed, a string")
                }
                stopOnEntry = arguments["stopOnEntry"]?.boolValue ?? false
                // A test run's URL (`hybrid test --inspect`): its files are threads in turn.
                testRun = arguments["test"]?.boolValue ?? false
                threadLive = !testRun
                try await connect(url)
                writer.respond(to: request)
                writer.event("initialized")
            case "setBreakpoints":
                writer.respond(to: request, body: try await setBreakpoints(arguments))
            case "setExceptionBreakpoints":
                try await setExceptionBreakpoints(arguments)
                writer.respond(to: request, body: ["breakpoints": []])
            case "configurationDone":
                awaitingEntry = app != nil || stopOnEntry
                configured = true
                writer.respond(to: request)
                // Answered by the host whether or not it waits (an attach to a running app).
                _ = try? await connected().send("Runtime.runIfWaitingForDebugger")
            case "threads":
                writer.respond(to: request, body: ["threads": threadLive ? [["id": .number(Double(threadId)), "name": .string(programName)]] : []])
            case "stackTrace":
                writer.respond(to: request, body: stackTrace(arguments))
            case "scopes":
                writer.respond(to: request, body: try scopes(arguments))
            case "variables":
                writer.respond(to: request, body: try await variables(arguments))
            case "evaluate":
                writer.respond(to: request, body: try await evaluate(arguments))
            case "setVariable":
                writer.respond(to: request, body: try await setVariable(arguments))
            case "exceptionInfo":
                guard let exception else { throw DebugAdapterError(.notPaused, "exceptionInfo: the app is not paused on an exception") }
                writer.respond(to: request, body: ["exceptionId": .string(exception.id), "description": .string(exception.description),
                                                   "breakMode": exception.uncaught ? "unhandled" : "always"])
            case "continue":
                try await connected().send("Debugger.resume")
                writer.respond(to: request, body: ["allThreadsContinued": true])
            case "next", "stepIn", "stepOut":
                requestedStop = "step"
                // JavaScriptCore's step into stops at each expression of a line first (the call's
                // callee, its arguments); the editor's asks for the next line or the call's body.
                stepInFrom = command == "stepIn" ? currentLine() : nil
                stepInRepeats = 0
                let method = ["next": "Debugger.stepOver", "stepIn": "Debugger.stepInto", "stepOut": "Debugger.stepOut"][command]!
                try await connected().send(method)
                writer.respond(to: request)
            case "pause":
                requestedStop = "pause"
                try await connected().send("Debugger.pause")
                writer.respond(to: request)
            case "terminate":
                await endApp()
                writer.respond(to: request)
            case "disconnect":
                await disconnect(arguments)
                writer.respond(to: request)
                return false
            case "source":
                writer.respond(to: request, body: try await sourceText(arguments))
            case "loadedSources":
                writer.respond(to: request, body: ["sources": .array(Set(scripts.values.filter { !$0.isInternal }.map(\.path)).sorted().map(Self.source))])
            default:
                throw DebugAdapterError(.badArguments, "\(command): not a request this debug adapter supports")
            }
        } catch {
            writer.fail(request, (error as? DebugAdapterError)?.message ?? "\(error)")
        }
        return true
    }

    private func initialize(_ arguments: JSONObject) -> JSONObject {
        lineBase = arguments["linesStartAt1"]?.boolValue == false ? 0 : 1
        columnBase = arguments["columnsStartAt1"]?.boolValue == false ? 0 : 1
        return [
            "supportsConfigurationDoneRequest": true,
            "supportsConditionalBreakpoints": true,
            "supportsHitConditionalBreakpoints": true,
            "supportsLogPoints": true,
            "supportsEvaluateForHovers": true,
            "supportsSetVariable": true,
            "supportsTerminateRequest": true,
            "supportsExceptionInfoRequest": true,
            "supportsLoadedSourcesRequest": true,
            "exceptionBreakpointFilters": [
                ["filter": "uncaught", "label": "Uncaught Exceptions", "default": false],
                ["filter": "all", "label": "All Exceptions", "description": "Caught ones too", "default": false],
            ],
        ]
    }

    private func launch(_ arguments: JSONObject) async throws(DebugAdapterError) {
        guard let program = arguments["program"]?.stringValue, !program.isEmpty else {
            throw DebugAdapterError(.badArguments, "program: expected the app's folder or module file, a string")
        }
        let args = try Self.strings(arguments, "args")
        var grants = try Self.strings(arguments["grants"]?.stringValue == nil ? arguments : [:], "grants")
        if let grant = arguments["grants"]?.stringValue { grants = [grant] }
        if let dataDir = arguments["dataDir"], dataDir.stringValue == nil {
            throw DebugAdapterError(.badArguments, "dataDir: expected a folder's path, a string, got \(dataDir.typeName)")
        }
        stopOnEntry = arguments["stopOnEntry"]?.boolValue ?? false
        programName = String(program.split(separator: "/").last ?? "app")
        if let test = arguments["test"], test.boolValue == nil {
            throw DebugAdapterError(.badArguments, "test: expected true (run the program's test files with `hybrid test`) or false, got \(test.typeName)")
        }
        testRun = arguments["test"]?.boolValue ?? LaunchedApp.isTestFile(program)
        if testRun, arguments["dataDir"] != nil {
            throw DebugAdapterError(.badArguments, "dataDir: not for a test launch (`hybrid test` gives each file a fresh temporary folder)")
        }
        threadLive = !testRun
        let writer = writer
        if let runtime = arguments["runtimeExecutable"], runtime.stringValue == nil {
            throw DebugAdapterError(.badArguments, "runtimeExecutable: expected the path of a hybrid executable, a string, got \(runtime.typeName)")
        }
        let app = try LaunchedApp(
            executable: arguments["runtimeExecutable"]?.stringValue ?? executable,
            arguments: testRun ? LaunchedApp.testArguments(program: program, arguments: args, grants: grants)
                : LaunchedApp.runArguments(program: program, arguments: args, dataDirectory: arguments["dataDir"]?.stringValue, grants: grants),
            directory: arguments["cwd"]?.stringValue,
            output: { category, text in writer.event("output", ["category": .string(category), "output": .string(text)]) })
        self.app = app
        app.process.onExit { status in Task { await self.appExited(status) } }
        guard let url = await app.inspectorURL() else {
            let printed = app.skippedLines.joined(separator: "\n")
            throw DebugAdapterError(.launch, "the app did not start its inspector" + (printed.isEmpty ? "" : ": " + printed))
        }
        try await connect(url)
    }

    private func connect(_ url: String) async throws(DebugAdapterError) {
        let inspector = try await InspectorClient.connect(url: url, targets: testRun)
        self.inspector = inspector
        Task {
            for await event in inspector.events { await self.received(event) }
            self.inspectorClosed()
        }
        // A test run's files are set up as each is listed.
        if !testRun { try await enableDebugger(inspector) }
    }

    private func enableDebugger(_ inspector: InspectorClient) async throws(DebugAdapterError) {
        try await inspector.send("Debugger.enable")
        try await inspector.send("Debugger.setBreakpointsActive", ["active": true])
        _ = try? await inspector.send("Debugger.setPauseOnDebuggerStatements", ["enabled": true])
        // The host's own scripts are stepped through, never into.
        _ = try? await inspector.send("Debugger.setShouldBlackboxURL", ["url": "^hybrid:", "isRegex": true, "shouldBlackbox": true])
    }

    private func connected() throws(DebugAdapterError) -> InspectorClient {
        guard let inspector else { throw DebugAdapterError(.inspector, "no app: send launch or attach first") }
        return inspector
    }

    // MARK: Breakpoints

    private func setBreakpoints(_ arguments: JSONObject) async throws(DebugAdapterError) -> JSONObject {
        guard let given = arguments["source"]?["path"]?.stringValue else {
            throw DebugAdapterError(.badArguments, "source.path: expected the file's absolute path, a string")
        }
        // The host names modules by their real paths (links resolved).
        let path = FileSystem.realPath(given) ?? given
        let inspector = try connected()
        let previous = breakpoints[path] ?? []
        breakpoints[path] = []
        for breakpoint in previous {
            if let id = breakpoint.inspectorId { _ = try? await inspector.send("Debugger.removeBreakpoint", ["breakpointId": .string(id)]) }
        }
        var placed: [SourceBreakpoint] = []
        for (index, item) in (arguments["breakpoints"]?.arrayValue ?? []).enumerated() {
            guard let line = item["line"]?.intValue else {
                throw DebugAdapterError(.badArguments, "breakpoints[\(index)].line: expected an integer")
            }
            let id = nextBreakpointId
            nextBreakpointId += 1
            var condition: String?
            var problem: String?
            do {
                condition = try BreakpointCondition.javaScript(condition: item["condition"]?.stringValue, hitCondition: item["hitCondition"]?.stringValue,
                                                               logMessage: item["logMessage"]?.stringValue, key: "b\(id)")
            } catch {
                problem = error.message
            }
            var breakpoint = SourceBreakpoint(id: id, path: path, line: line - lineBase, condition: condition)
            if let problem {
                breakpoint.message = problem
                breakpoint.rejected = true
            } else {
                await place(&breakpoint)
            }
            placed.append(breakpoint)
        }
        breakpoints[path] = placed
        return ["breakpoints": .array(placed.map(dapBreakpoint))]
    }

    /// Sets `breakpoint` in the inspector: through the map of its module's script when loaded,
    /// through a map worked out ahead when the module is transformed and not loaded yet (the
    /// host's is checked when it loads), else at the same line.
    private func place(_ breakpoint: inout SourceBreakpoint) async {
        guard let inspector else { return }
        if testRun && !threadLive {
            // Between test files (or before the first): placed in each as it starts.
            breakpoint.verified = false
            breakpoint.message = "set when a test file starts"
            return
        }
        let loaded = scripts.values.filter { $0.path == breakpoint.path && !$0.url.contains("?patch=") }.max { $0.id < $1.id }
        let target: (line: Int, column: Int)
        breakpoint.predicted = false
        breakpoint.pending = false
        if let loaded {
            guard let generated = loaded.generated(path: breakpoint.path, line: breakpoint.line) else {
                breakpoint.verified = false
                breakpoint.message = "no code on or just after this line"
                return
            }
            target = generated
        } else if Self.isTransformed(breakpoint.path) {
            guard let generated = Self.predictedPosition(path: breakpoint.path, line: breakpoint.line) else {
                breakpoint.pending = true
                breakpoint.message = "set when the module loads"
                return
            }
            target = generated
            breakpoint.predicted = true
        } else {
            target = (breakpoint.line, breakpoint.line == 0 ? LoadedScript.moduleWrapperPrefix.utf16.count : 0)
        }
        var options: JSONObject = [:]
        if let condition = breakpoint.condition { options["condition"] = .string(condition) }
        do {
            let result = try await inspector.send("Debugger.setBreakpointByUrl", [
                "url": .string(breakpoint.path), "lineNumber": .number(Double(target.line)), "columnNumber": .number(Double(target.column)),
                "options": .object(options),
            ])
            breakpoint.inspectorId = result["breakpointId"]?.stringValue
            breakpoint.target = target
            breakpoint.verified = true
            breakpoint.message = nil
            breakpoint.actualLine = breakpoint.line
            if let location = result["locations"]?.arrayValue?.first?.objectValue, let line = originalLine(of: location, path: breakpoint.path) {
                breakpoint.actualLine = line
            }
        } catch {
            breakpoint.verified = false
            breakpoint.message = error.message
        }
    }

    /// A TypeScript file or an ES module: the host runs a transform of it, so its lines move.
    private static func isTransformed(_ path: String) -> Bool {
        guard let format = try? ModuleResolver().format(of: path) else { return false }
        return ModuleTransformer.needsTransform(path: path, format: format)
    }

    /// Where the host's transform will put original `line` of `path`: the same transform, run
    /// here (from the transform cache the host shares, when it has run before), its map read
    /// with line 0 shifted by the module wrapper as the host's is.
    private static func predictedPosition(path: String, line: Int) -> (line: Int, column: Int)? {
        guard let source = try? FileSystem.text(atPath: path), let format = try? ModuleResolver().format(of: path),
              let compiled = try? ModuleTransformer().compile(path: path, source: source, format: format),
              let text = compiled.sourceMapText(), let map = try? SourceMap(json: text, location: path, source: path),
              let generated = map.generated(source: path, line: line) else { return nil }
        return generated.line == 0 ? (0, generated.column + LoadedScript.moduleWrapperPrefix.utf16.count) : generated
    }

    /// The original line (0-based) of an inspector location, when it is in a script of `path`.
    private func originalLine(of location: JSONObject, path: String) -> Int? {
        guard let scriptId = location["scriptId"]?.stringValue, let script = scripts[scriptId],
              let line = location["lineNumber"]?.intValue else { return nil }
        let original = script.original(line: line, column: location["columnNumber"]?.intValue ?? 0)
        return original.path == path ? original.line : nil
    }

    private func dapBreakpoint(_ breakpoint: SourceBreakpoint) -> JSONValue {
        var body: JSONObject = ["id": .number(Double(breakpoint.id)), "verified": .bool(breakpoint.verified),
                                "source": Self.source(breakpoint.path)]
        body["line"] = .number(Double((breakpoint.actualLine ?? breakpoint.line) + lineBase))
        if let message = breakpoint.message { body["message"] = .string(message) }
        return .object(body)
    }

    private func setExceptionBreakpoints(_ arguments: JSONObject) async throws(DebugAdapterError) {
        let filters = try Self.strings(arguments, "filters")
        for filter in filters where filter != "all" && filter != "uncaught" {
            throw DebugAdapterError(.badArguments, "filters: expected \"uncaught\" or \"all\", got \"\(filter)\"")
        }
        pauseOnExceptions = filters.contains("all") ? "all" : filters.contains("uncaught") ? "uncaught" : "none"
        try await connected().send("Debugger.setPauseOnExceptions", ["state": .string(pauseOnExceptions)])
    }

    // MARK: Stack, scopes, variables

    private func stackTrace(_ arguments: JSONObject) -> JSONObject {
        var frames: [JSONValue] = []
        for (index, frame) in callFrames.enumerated() {
            guard let location = frame["location"]?.objectValue, let scriptId = location["scriptId"]?.stringValue,
                  let script = scripts[scriptId], !script.isInternal else { continue }
            let original = script.original(line: location["lineNumber"]?.intValue ?? 0, column: location["columnNumber"]?.intValue ?? 0)
            let name = frame["functionName"]?.stringValue ?? ""
            frames.append(["id": .number(Double(index + 1)), "name": .string(name.isEmpty ? "(anonymous)" : name),
                           "source": source(of: script, path: original.path), "line": .number(Double(original.line + lineBase)),
                           "column": .number(Double(original.column + columnBase))])
        }
        let start = min(max(arguments["startFrame"]?.intValue ?? 0, 0), frames.count)
        let levels = arguments["levels"]?.intValue ?? 0
        let end = levels > 0 ? min(start + levels, frames.count) : frames.count
        return ["stackFrames": .array(Array(frames[start..<end])), "totalFrames": .number(Double(frames.count))]
    }

    /// A frame's source: its file, or for a patched module the patch's own text (a reference the
    /// editor reads with a `source` request), since the file on disk is not what runs.
    private func source(of script: LoadedScript, path: String) -> JSONValue {
        guard script.url.contains("?patch=") else { return Self.source(path) }
        let reference = sourceReferences.first { $0.value == script.id }?.key ?? {
            let reference = sourceReferences.count + 1
            sourceReferences[reference] = script.id
            return reference
        }()
        let name = String(path.split(separator: "/").last ?? Substring(path))
        return ["name": .string(name + " (patched)"), "path": .string(path), "sourceReference": .number(Double(reference)),
                "origin": "a signed patch"]
    }

    /// `source`: the text of a patched module, as the patch has it (the original in its source map,
    /// else the JavaScript that runs).
    private func sourceText(_ arguments: JSONObject) async throws(DebugAdapterError) -> JSONObject {
        let reference = arguments["sourceReference"]?.intValue ?? arguments["source"]?["sourceReference"]?.intValue ?? 0
        guard let scriptId = sourceReferences[reference], let script = scripts[scriptId] else {
            throw DebugAdapterError(.badArguments, "sourceReference: expected one a stack frame gave, got \(reference)")
        }
        if let content = script.sourceMap?.sourcesContent.first, let content {
            return ["content": .string(content)]
        }
        let result = try await connected().send("Debugger.getScriptSource", ["scriptId": .string(scriptId)])
        return ["content": result["scriptSource"] ?? ""]
    }

    private func frame(_ id: Int?) throws(DebugAdapterError) -> JSONObject {
        guard !callFrames.isEmpty else { throw DebugAdapterError(.notPaused, "the app is running: pause it first") }
        guard let id, id >= 1, id <= callFrames.count else {
            throw DebugAdapterError(.badArguments, "frameId: expected a frame of the current stack (1 to \(callFrames.count)), got \(id.map(String.init) ?? "nothing")")
        }
        return callFrames[id - 1]
    }

    private func scopes(_ arguments: JSONObject) throws(DebugAdapterError) -> JSONObject {
        let frame = try frame(arguments["frameId"]?.intValue)
        let callFrameId = frame["callFrameId"]?.stringValue ?? ""
        var scopes: [JSONValue] = []
        var sawLocal = false
        for scope in (frame["scopeChain"]?.arrayValue ?? []).compactMap(\.objectValue) {
            guard scope["empty"]?.boolValue != true, let objectId = scope["object"]?["objectId"]?.stringValue else { continue }
            let type = scope["type"]?.stringValue ?? ""
            let scopeName = scope["name"]?.stringValue.map { " " + $0 } ?? ""
            let name: String
            var hint: JSONValue?
            switch type {
            case "closure" where !sawLocal:
                name = "Local"
                hint = "locals"
                sawLocal = true
            case "closure": name = "Closure" + scopeName
            case "nestedLexical": name = "Block"
            case "catch": name = "Catch"
            case "functionName": name = "Function" + scopeName
            case "globalLexicalEnvironment": name = "Script"
            case "global": name = "Global"
            case "with": name = "With"
            default: name = type
            }
            var body: JSONObject = ["name": .string(name), "variablesReference": .number(Double(handle(.scope(objectId: objectId, callFrameId: callFrameId)))),
                                    "expensive": .bool(type == "global")]
            if let hint { body["presentationHint"] = hint }
            scopes.append(.object(body))
        }
        return ["scopes": .array(scopes)]
    }

    private func handle(_ container: VariableContainer) -> Int {
        defer { nextHandle += 1 }
        handles[nextHandle] = container
        return nextHandle
    }

    private func variables(_ arguments: JSONObject) async throws(DebugAdapterError) -> JSONObject {
        guard let reference = arguments["variablesReference"]?.intValue, let container = handles[reference] else {
            throw DebugAdapterError(.badArguments, "variablesReference: expected one given since the app last paused")
        }
        var variables: [JSONValue] = []
        switch container {
        case .scope(let objectId, let callFrameId), .object(let objectId, _, let callFrameId?):
            variables = try await properties(of: objectId, callFrameId: callFrameId, container: container)
        case .object(let objectId, _, nil):
            variables = try await properties(of: objectId, callFrameId: nil, container: container)
        case .entries(let objectId):
            let result = try await connected().send("Runtime.getCollectionEntries", ["objectId": .string(objectId), "objectGroup": "dap",
                                                                                     "fetchStart": 0, "fetchCount": 1000])
            for (index, entry) in (result["entries"]?.arrayValue ?? []).compactMap(\.objectValue).enumerated() {
                guard let value = entry["value"]?.objectValue else { continue }
                if let key = entry["key"]?.objectValue {
                    let text = "\(RemoteValue(object: key).display) => \(RemoteValue(object: value).display)"
                    variables.append(["name": .string("[\(index)]"), "value": .string(text), "type": "entry",
                                      "variablesReference": .number(Double(handle(.entry(key: key, value: value))))])
                } else {
                    variables.append(variable("[\(index)]", value, callFrameId: nil))
                }
            }
        case .entry(let key, let value):
            variables = [variable("key", key, callFrameId: nil), variable("value", value, callFrameId: nil)]
        }
        return ["variables": .array(variables)]
    }

    private func properties(of objectId: String, callFrameId: String?, container: VariableContainer) async throws(DebugAdapterError) -> [JSONValue] {
        let result = try await connected().send("Runtime.getProperties", ["objectId": .string(objectId), "ownProperties": true, "generatePreview": true])
        var variables: [JSONValue] = []
        for property in (result["properties"]?.arrayValue ?? []).compactMap(\.objectValue) {
            guard let name = property["name"]?.stringValue, name != "__proto__" else { continue }
            if let value = property["value"]?.objectValue {
                variables.append(variable(name, value, callFrameId: callFrameId))
            } else if property["get"] != nil {
                variables.append(["name": .string(name), "value": "(getter)", "variablesReference": 0])
            }
        }
        for property in (result["internalProperties"]?.arrayValue ?? []).compactMap(\.objectValue) {
            guard let name = property["name"]?.stringValue, let value = property["value"]?.objectValue, name != "entries" else { continue }
            variables.append(variable("[[\(name)]]", value, callFrameId: nil))
        }
        if case .object(_, true, _) = container {
            variables.append(["name": "[[Entries]]", "value": "", "variablesReference": .number(Double(handle(.entries(objectId: objectId))))])
        }
        return variables
    }

    private func variable(_ name: String, _ object: JSONObject, callFrameId: String?) -> JSONValue {
        let value = RemoteValue(object: object)
        var reference = 0
        if value.isExpandable, let objectId = value.objectId {
            reference = handle(.object(objectId: objectId, collection: value.isCollection, callFrameId: callFrameId))
        }
        return ["name": .string(name), "value": .string(value.display), "type": .string(value.typeName),
                "variablesReference": .number(Double(reference))]
    }

    // MARK: Evaluate, set variable

    private func evaluate(_ arguments: JSONObject) async throws(DebugAdapterError) -> JSONObject {
        guard let expression = arguments["expression"]?.stringValue else {
            throw DebugAdapterError(.badArguments, "expression: expected a string")
        }
        let quiet = arguments["context"]?.stringValue != "repl"
        let frameId = arguments["frameId"]?.intValue ?? (callFrames.isEmpty ? nil : 1)
        let object = try await evaluated(expression, frameId: frameId, quiet: quiet)
        let value = RemoteValue(object: object)
        var reference = 0
        if value.isExpandable, let objectId = value.objectId {
            reference = handle(.object(objectId: objectId, collection: value.isCollection, callFrameId: nil))
        }
        return ["result": .string(value.display), "type": .string(value.typeName), "variablesReference": .number(Double(reference))]
    }

    /// `expression`'s value (a `Runtime.RemoteObject`), on frame `frameId` when paused, else in the
    /// app's global scope; a thrown error throws with its description.
    private func evaluated(_ expression: String, frameId: Int?, quiet: Bool) async throws(DebugAdapterError) -> JSONObject {
        let inspector = try connected()
        var params: JSONObject = ["expression": .string(expression), "objectGroup": "dap", "includeCommandLineAPI": true,
                                  "doNotPauseOnExceptionsAndMuteConsole": .bool(quiet), "generatePreview": true]
        let result: JSONObject
        if let frameId {
            params["callFrameId"] = .string(try frame(frameId)["callFrameId"]?.stringValue ?? "")
            result = try await inspector.send("Debugger.evaluateOnCallFrame", params)
        } else {
            result = try await inspector.send("Runtime.evaluate", params)
        }
        let object = result["result"]?.objectValue ?? [:]
        if result["wasThrown"]?.boolValue == true {
            throw DebugAdapterError(.command, object["description"]?.stringValue ?? RemoteValue(object: object).display)
        }
        return object
    }

    private func setVariable(_ arguments: JSONObject) async throws(DebugAdapterError) -> JSONObject {
        guard let reference = arguments["variablesReference"]?.intValue, let container = handles[reference] else {
            throw DebugAdapterError(.badArguments, "variablesReference: expected one given since the app last paused")
        }
        guard let name = arguments["name"]?.stringValue, let expression = arguments["value"]?.stringValue else {
            throw DebugAdapterError(.badArguments, "name and value: expected strings")
        }
        let object: JSONObject
        switch container {
        case .scope(_, let callFrameId):
            let frameId = callFrames.firstIndex { $0["callFrameId"]?.stringValue == callFrameId }.map { $0 + 1 }
            object = try await evaluated("\(name) = (\(expression))", frameId: frameId, quiet: true)
        case .object(let objectId, _, _):
            let value = try await evaluated(expression, frameId: callFrames.isEmpty ? nil : 1, quiet: true)
            var argument: JSONObject = [:]
            if let valueId = value["objectId"]?.stringValue {
                argument["objectId"] = .string(valueId)
            } else if let primitive = value["value"] {
                argument["value"] = primitive
            }
            let result = try await connected().send("Runtime.callFunctionOn", [
                "objectId": .string(objectId), "functionDeclaration": "function (name, value) { this[name] = value; return this[name]; }",
                "arguments": [["value": .string(name)], .object(argument)], "generatePreview": true,
            ])
            if result["wasThrown"]?.boolValue == true {
                throw DebugAdapterError(.command, result["result"]?["description"]?.stringValue ?? "the assignment threw")
            }
            object = result["result"]?.objectValue ?? [:]
        case .entries, .entry:
            throw DebugAdapterError(.badArguments, "setVariable: a Map's or Set's entries are set in code (map.set(...))")
        }
        guard case .object(let body) = variable(name, object, callFrameId: nil) else { return [:] }
        return ["value": body["value"] ?? "", "type": body["type"] ?? "", "variablesReference": body["variablesReference"] ?? 0]
    }

    // MARK: Ending

    private func disconnect(_ arguments: JSONObject) async {
        if app != nil, arguments["terminateDebuggee"]?.boolValue != false {
            await endApp()
        } else if let inspector {
            // An attached app runs on without its debugger.
            _ = try? await inspector.send("Debugger.setBreakpointsActive", ["active": false])
            _ = try? await inspector.send("Debugger.resume")
            inspector.close()
        }
    }

    /// SIGTERM, then SIGKILL when the app has not ended within 3 s (a paused app may not take
    /// its SIGTERM).
    private func endApp() async {
        guard let process = app?.process, process.isRunning else { return }
        process.signal(SIGTERM)
        for _ in 0..<30 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(100))
        }
        process.signal(SIGKILL)
    }

    /// The editor went away without a `disconnect`: the app it launched goes too.
    func abandon() async {
        await endApp()
    }

    private func appExited(_ status: Int32) async {
        await app?.outputEnded()
        writer.event("exited", ["exitCode": .number(Double(status))])
        sendTerminated()
    }

    private func inspectorClosed() {
        callFrames = []
        if app == nil { sendTerminated() }
    }

    private func sendTerminated() {
        guard !terminatedSent else { return }
        terminatedSent = true
        writer.event("terminated")
    }

    // MARK: - Inspector events

    private func received(_ event: InspectorEvent) async {
        switch event.method {
        case "Debugger.scriptParsed":
            await scriptParsed(event.params)
        case "Debugger.paused":
            await paused(event.params)
        case "Debugger.resumed":
            forgetPause()
            if reportedStop {
                reportedStop = false
                writer.event("continued", ["threadId": .number(Double(threadId)), "allThreadsContinued": true])
            }
            _ = try? await inspector?.send("Runtime.releaseObjectGroup", ["objectGroup": "dap"])
        case "Target.targetCreated":
            await targetCreated(event.params)
        case "Target.targetDestroyed":
            forgetPause()
            reportedStop = false
            threadLive = false
            writer.event("thread", ["reason": "exited", "threadId": .number(Double(threadId))])
        case "Debugger.breakpointResolved":
            guard let id = event.params["breakpointId"]?.stringValue, let location = event.params["location"]?.objectValue else { return }
            for (path, list) in breakpoints {
                guard let index = list.firstIndex(where: { $0.inspectorId == id }) else { continue }
                if let line = originalLine(of: location, path: path) { breakpoints[path]![index].actualLine = line }
                breakpoints[path]![index].verified = true
                writer.event("breakpoint", ["reason": "changed", "breakpoint": dapBreakpoint(breakpoints[path]![index])])
            }
        default:
            break
        }
    }

    /// What a pause gave (frames, variables references, the exception) no longer holds.
    private func forgetPause() {
        callFrames = []
        handles = [:]
        exception = nil
    }

    /// A test file's context (`hybrid test --inspect-brk`, waiting for us): a thread starts, and is
    /// let run once the debugger is on and every breakpoint set in it.
    private func targetCreated(_ params: JSONObject) async {
        threadsStarted += 1
        threadId = threadsStarted
        let title = params["targetInfo"]?["title"]?.stringValue ?? "test file \(threadId)"
        programName = String(title.split(separator: "/").last ?? Substring(title))
        scripts = [:]
        forgetPause()
        threadLive = true
        writer.event("thread", ["reason": "started", "threadId": .number(Double(threadId))])
        guard let inspector else { return }
        try? await enableDebugger(inspector)
        if pauseOnExceptions != "none" { _ = try? await inspector.send("Debugger.setPauseOnExceptions", ["state": .string(pauseOnExceptions)]) }
        for (path, list) in breakpoints {
            for breakpoint in list where !breakpoint.rejected {
                var placed = breakpoint
                placed.inspectorId = nil
                await place(&placed)
                if update(breakpoint.id, in: path, { $0 = placed }), placed.verified != breakpoint.verified || placed.actualLine != breakpoint.actualLine {
                    writer.event("breakpoint", ["reason": "changed", "breakpoint": dapBreakpoint(placed)])
                }
            }
        }
        if configured { _ = try? await inspector.send("Runtime.runIfWaitingForDebugger") }
    }

    /// A script loaded: breakpoints waiting for it are placed, and those placed through a map
    /// worked out ahead are checked against the host's and moved if they differ.
    private func scriptParsed(_ params: JSONObject) async {
        guard let id = params["scriptId"]?.stringValue else { return }
        let script = LoadedScript(id: id, url: params["url"]?.stringValue ?? "", sourceMapURL: params["sourceMapURL"]?.stringValue)
        scripts[id] = script
        guard !script.isInternal, !script.url.contains("?patch="), script.hasSourceMap else { return }
        let path = script.path
        for breakpoint in breakpoints[path] ?? [] where breakpoint.pending || breakpoint.predicted {
            if breakpoint.predicted, let generated = script.generated(path: path, line: breakpoint.line),
               let target = breakpoint.target, generated == target {
                update(breakpoint.id, in: path) { $0.predicted = false }
                continue
            }
            var moved = breakpoint
            if let old = breakpoint.inspectorId { _ = try? await inspector?.send("Debugger.removeBreakpoint", ["breakpointId": .string(old)]) }
            moved.inspectorId = nil
            await place(&moved)
            if update(breakpoint.id, in: path, { $0 = moved }) {
                writer.event("breakpoint", ["reason": "changed", "breakpoint": dapBreakpoint(moved)])
            }
        }
    }

    /// Changes breakpoint `id` of `path` if it is still set (a `setBreakpoints` may have replaced
    /// it meanwhile); whether it was.
    @discardableResult
    private func update(_ id: Int, in path: String, _ change: (inout SourceBreakpoint) -> Void) -> Bool {
        guard let index = breakpoints[path]?.firstIndex(where: { $0.id == id }) else { return false }
        change(&breakpoints[path]![index])
        return true
    }

    /// The stack's depth and the top frame's original file and line, while paused.
    private func currentLine() -> (depth: Int, path: String, line: Int)? {
        guard let top = callFrames.first, let location = top["location"]?.objectValue,
              let scriptId = location["scriptId"]?.stringValue, let script = scripts[scriptId] else { return nil }
        let original = script.original(line: location["lineNumber"]?.intValue ?? 0, column: location["columnNumber"]?.intValue ?? 0)
        return (callFrames.count, original.path, original.line)
    }

    private func isHidden(_ frame: JSONObject) -> Bool {
        guard let scriptId = frame["location"]?["scriptId"]?.stringValue, let script = scripts[scriptId] else { return true }
        return script.isInternal
    }

    private func paused(_ params: JSONObject) async {
        callFrames = (params["callFrames"]?.arrayValue ?? []).compactMap(\.objectValue)
        handles = [:]
        let reason = params["reason"]?.stringValue ?? "other"
        // JavaScriptCore names the breakpoint it stopped at in `data`; the protocol's
        // `hitBreakpoints` where a port fills it.
        let hit = (params["hitBreakpoints"]?.arrayValue ?? []).compactMap(\.stringValue)
            + (reason == "Breakpoint" ? [params["data"]?["breakpointId"]?.stringValue].compactMap { $0 } : [])
        let isException = reason == "exception" || reason == "assert"
        let mine = breakpoints.values.joined().filter { breakpoint in breakpoint.inspectorId.map(hit.contains) ?? false }
        // A breakpoint none of ours is the host's one-shot entry breakpoint: taken out here, so
        // that it cannot stop the app again (at a function's first call, when the module starts
        // with its declaration).
        let foreign = hit.filter { id in !mine.contains { $0.inspectorId == id } }
        for id in foreign { _ = try? await inspector?.send("Debugger.removeBreakpoint", ["breakpointId": .string(id)]) }
        if !awaitingEntry, !foreign.isEmpty, mine.isEmpty, !isException {
            _ = try? await inspector?.send("Debugger.resume")
            return
        }
        if awaitingEntry {
            // `--inspect-brk`'s pause before the main module's first statement: the host's own
            // one-shot breakpoint (an id none of ours), or a plain pause.
            awaitingEntry = false
            if !isException, mine.isEmpty, reason != "DebuggerStatement" {
                if stopOnEntry {
                    report(["reason": "entry", "description": "Paused on entry"])
                } else {
                    _ = try? await inspector?.send("Debugger.resume")
                }
                return
            }
        }
        // A step that left the app's code for the host's, or an exception the host's own code
        // throws and catches: not the app's business.
        if let top = callFrames.first, isHidden(top) {
            let userFrames = callFrames.contains { !isHidden($0) }
            if requestedStop == "step" || (isException && (pauseOnExceptions == "all" || !userFrames)) {
                _ = try? await inspector?.send(userFrames && !isException ? "Debugger.stepOut" : "Debugger.resume")
                return
            }
        }
        if requestedStop == "step", let from = stepInFrom, !isException, mine.isEmpty, stepInRepeats < 4,
           let here = currentLine(), here == from {
            stepInRepeats += 1
            _ = try? await inspector?.send("Debugger.stepInto")
            return
        }
        stepInFrom = nil
        var body: JSONObject = [:]
        if isException {
            let data = params["data"]?.objectValue ?? [:]
            let description = data["description"]?.stringValue ?? RemoteValue(object: data).display
            exception = (data["className"]?.stringValue ?? "Error", description, pauseOnExceptions != "all")
            body = ["reason": "exception", "description": "Paused on exception", "text": .string(description)]
        } else if !hit.isEmpty || reason == "Breakpoint" {
            body = ["reason": "breakpoint", "description": "Paused on breakpoint", "hitBreakpointIds": .array(mine.map { .number(Double($0.id)) })]
        } else if reason == "DebuggerStatement" {
            body = ["reason": "breakpoint", "description": "Paused on debugger statement"]
        } else {
            body = ["reason": .string(requestedStop ?? "pause")]
        }
        report(body)
    }

    private func report(_ body: JSONObject) {
        var body = body
        body["threadId"] = .number(Double(threadId))
        body["allThreadsStopped"] = true
        requestedStop = nil
        reportedStop = true
        writer.event("stopped", body)
    }

    // MARK: - Helpers

    private static func source(_ path: String) -> JSONValue {
        ["name": .string(String(path.split(separator: "/").last ?? Substring(path))), "path": .string(path)]
    }

    private static func strings(_ arguments: JSONObject, _ key: String) throws(DebugAdapterError) -> [String] {
        guard let value = arguments[key], !value.isNull else { return [] }
        guard let array = value.arrayValue else {
            throw DebugAdapterError(.badArguments, "\(key): expected an array of strings, got \(value.typeName)")
        }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else {
                throw DebugAdapterError(.badArguments, "\(key)[\(index)]: expected a string, got \(element.typeName)")
            }
            strings.append(string)
        }
        return strings
    }
}
