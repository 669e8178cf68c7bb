// The Bridge module: envelopes, the service registry, contracts and their validation, grants.
// It is the only mediator between JS and services. It must answer every call exactly once
// (result, error, timeout, cancellation or shutdown) and must never let a service run JS.
import Engine
import JSON

/// Options of one bridge.
public struct BridgeOptions: Sendable {
    /// Check every result against its contract (as `hybrid test` does); a mismatch fails the call
    /// with `E_FAILED`, `details.reason` "contract".
    public var validatesResults = false

    public init(validatesResults: Bool = false) {
        self.validatesResults = validatesResults
    }
}

/// The native half of the bridge for one app run: receives calls from `js/runtime/bridge.js`,
/// checks them (target, grant, action, params against the contract), runs the action inline or
/// on a worker, and settles the JS promise through the event loop.
// @unchecked: the `let`s are immutable Sendable values; every `var` is read and written on the JS thread only (install, native callbacks, posted settles: `context.assertOnThread()` in receive, `engine.assertOnLoopThread()` in settle).
public final class BridgeDispatcher: @unchecked Sendable {
    let app: AppContext
    let options: BridgeOptions
    let actions: [String: [String: ServiceAction]]
    let contracts: [String: Contract]
    let counters: [String: [String: SharedCounter]]
    /// Told when the run ends (``BridgeService/runEnded(app:)``).
    let services: [any BridgeService]

    // JS thread only.
    /// Every (target, action) pair JS has named, checked once: JS caches the index and passes it
    /// with each call, so the hot path does no string work for routing.
    private var routes: [Route] = []
    private var routeIndex: [String: [String: Int]] = [:]
    private var pending: [Double: PendingCall] = [:]
    private var settleFunction: ScriptObject?
    /// Sentinels `call` returns: the answer is pending, or the call failed at once (`takeError`).
    private var pendingMarker: ScriptObject?
    private var failedMarker: ScriptObject?
    private var lastError: JSONValue = .null
    /// True while a non-blocking action runs synchronously inside `native.call`.
    private var receiving = false
    private var engine: JSEngine?
    private var context: ScriptContext?

    struct Route {
        let target: String
        let action: String
        /// Why every call on this route fails before running (unknown target, no grant, unknown action).
        let refusal: BridgeError?
        let run: ServiceAction?
        var paramsValidator: SchemaValidator?
        var resultValidator: SchemaValidator?
    }

    final class PendingCall {
        let target: String
        let action: String
        let route: Int
        var task: Task<Void, Never>?
        var timer: Int?

        init(target: String, action: String, route: Int) {
            self.target = target
            self.action = action
            self.route = route
        }
    }

    public init(registry: ServiceRegistry, contracts: [String: Contract], app: AppContext, options: BridgeOptions = BridgeOptions()) {
        var registry = registry
        if registry["bridge"] == nil { registry.register(BridgeTarget(contracts: contracts, grants: app.grants)) }
        var actions: [String: [String: ServiceAction]] = [:]
        var counters: [String: [String: SharedCounter]] = [:]
        for (target, service) in registry.services {
            actions[target] = service.actions
            // Only a granted target's client may read its counters.
            if app.grants.allows(target: target) {
                let published = service.sharedCounters(for: app)
                if !published.isEmpty { counters[target] = published }
            }
        }
        self.actions = actions
        self.counters = counters
        services = Array(registry.services.values)
        self.contracts = contracts
        self.app = app
        self.options = options
    }

    /// Installs `Hybrid` into the context. Call on the JS thread, once.
    public func install(into context: ScriptContext, engine: JSEngine) throws(ScriptError) {
        self.engine = engine
        self.context = context
        let native = context.makeObject()
        context.setFunction(native, "attach") { [unowned self] args in
            guard let settle = args.context.object(args[0]), let pendingMarker = args.context.object(args[1]),
                  let failedMarker = args.context.object(args[2]) else {
                throw NativeFunctionError("attach: expected settle, pending and failed")
            }
            for object in [settle, pendingMarker, failedMarker] { args.context.protect(object) }
            self.settleFunction = settle
            self.pendingMarker = pendingMarker
            self.failedMarker = failedMarker
            return nil
        }
        context.setFunction(native, "route") { [unowned self] args in
            args.context.number(Double(route(target: args.context.stringify(args[0]), action: args.context.stringify(args[1]))))
        }
        context.setFunction(native, "call") { [unowned self] args in
            receive(args)
        }
        context.setFunction(native, "takeError") { [unowned self] args in
            defer { lastError = .null }
            return args.context.jsValue(from: lastError)
        }
        context.setFunction(native, "cancel") { [unowned self] args in
            let id = args.context.numberValue(args[0])
            if let call = pending[id] {
                settle(id, error: BridgeError(.cancelled, "\(call.target).\(call.action) was cancelled"))
            }
            return nil
        }
        context.set(native, "args", context.jsValue(from: .array(app.arguments.map { .string($0) })))
        let counterViews = context.makeObject()
        for (target, published) in counters {
            let views = context.makeObject()
            for (name, counter) in published {
                guard let view = context.view(of: counter) else { throw ScriptError(name: "Error", message: "cannot map the counter \(target).\(name)") }
                context.set(views, name, view)
            }
            context.set(counterViews, target, views)
        }
        context.set(native, "counters", counterViews)
        engine.onShutdown { [unowned self] _ in shutDown() }
        for (name, source) in BridgeClientScript.sources {
            try context.runPrelude(source, url: "hybrid:\(name)", native: native)
        }
        try context.runPrelude("Object.freeze(native.hybrid);", url: "hybrid:freeze", native: native)
    }

    /// The number of calls not yet answered.
    public var pendingCount: Int { pending.count }

    // MARK: - Routing

    /// The route for `target.action`, checked in this order: target, grant, action.
    private func route(target: String, action: String) -> Int {
        if let index = routeIndex[target]?[action] { return index }
        var refusal: BridgeError?
        var run: ServiceAction?
        if let targetActions = actions[target] {
            if !app.grants.allows(target: target) {
                refusal = BridgeError(.denied, "app \"\(app.name)\" has no grant for \"\(target)\"; add it to the grants in app.json (or --grant \(target))")
            } else if let found = targetActions[action] {
                run = found
            } else {
                let known = targetActions.keys.sorted().joined(separator: ", ")
                refusal = BridgeError(.unknownAction, "\(target) has no action \"\(action)\"; its actions: \(known)")
            }
        } else {
            let known = actions.keys.sorted().joined(separator: ", ")
            refusal = BridgeError(.unknownTarget, "unknown target \"\(target)\"; registered targets: \(known)")
        }
        routes.append(Route(target: target, action: action, refusal: refusal, run: run))
        routeIndex[target, default: [:]][action] = routes.count - 1
        return routes.count - 1
    }

    // MARK: - Receiving a call

    /// `native.call(id, route, params, timeoutMs, paramsText?)`: returns the result of an inline
    /// action at once, the failed marker for an error known at once, or the pending marker
    /// (settled later). `paramsText`, from runtime clients only, is `JSON.stringify(params)` of
    /// params known to be plain JSON data.
    private func receive(_ args: NativeArguments) -> ScriptValue? {
        let context = args.context
        context.assertOnThread()
        let id = context.numberValue(args[0])
        let routeNumber = context.numberValue(args[1])
        guard routeNumber >= 0, routeNumber < Double(routes.count) else {
            return failNow(BridgeError(.failed, "internal: unknown route"), target: "", action: "")
        }
        let index = Int(routeNumber)
        let route = routes[index]
        if let refusal = route.refusal { return failNow(refusal, target: route.target, action: route.action) }

        let timeout = args[3]
        var timeoutMs: Double?
        if context.isNumber(timeout) {
            let ms = context.numberValue(timeout)
            guard ms.isFinite, ms > 0 else {
                return failNow(BridgeError(.badParams, "options.timeoutMs: expected a positive number of milliseconds, got \(Self.format(ms))"),
                               target: route.target, action: route.action)
            }
            timeoutMs = ms
        } else if !context.isNullish(timeout) {
            return failNow(BridgeError(.badParams, "options.timeoutMs: expected a number of milliseconds"), target: route.target, action: route.action)
        }

        let params: JSONValue
        switch checkedParams(args[2], text: args[4], route: index, context: context) {
        case .failure(let error): return failNow(error, target: route.target, action: route.action)
        case .success(let value): params = value
        }
        let serviceCall = ServiceCall(target: route.target, action: route.action, params: params, app: app)

        switch route.run!.placement {
        case .inline(let body):
            return answerNow(route: index, context: context) { .value(try body(serviceCall)) }
        case .inlineAnswer(let body):
            return answerNow(route: index, context: context) { try body(serviceCall) }
        case .worker(let body):
            if let refusal = overQuota(route) { return refusal }
            start(id, route: index, serviceCall, timeoutMs: timeoutMs, on: nil, body)
        case .nonBlocking(let body):
            if let refusal = overQuota(route) { return refusal }
            start(id, route: index, serviceCall, timeoutMs: timeoutMs, on: engine?.executor, body)
        }
        return pendingMarker
    }

    /// The refusal of a call that would hold one more than the app's quota of calls in flight,
    /// answered at once like every refusal (the app can await some of its calls and go on).
    private func overQuota(_ route: Route) -> ScriptValue? {
        let limit = app.quotas.callsInFlight
        guard pending.count >= limit else { return nil }
        let error = BridgeError(.tooMany, "\(pending.count) calls are in flight, the app's quota (app.json quotas.callsInFlight: \(limit)); await some before starting more",
                                details: ["limit": .number(Double(limit)), "quota": "callsInFlight"])
        return failNow(error, target: route.target, action: route.action)
    }

    /// Runs an asynchronous action as a task (on `executor`, or the global pool when nil) and
    /// settles the call when it ends, on the JS thread.
    private func start(_ id: Double, route index: Int, _ serviceCall: ServiceCall, timeoutMs: Double?,
                       on executor: (any TaskExecutor)?, _ body: @escaping @Sendable (ServiceCall) async throws -> JSONValue) {
        let target = serviceCall.target
        let action = serviceCall.action
        let call = PendingCall(target: target, action: action, route: index)
        pending[id] = call
        engine?.hold()
        if let timeoutMs {
            call.timer = engine?.addNativeTimer(delayMs: timeoutMs) { [unowned self] in
                guard let call = pending[id] else { return }
                call.timer = nil
                settle(id, error: BridgeError(.timeout, "\(call.target).\(call.action) did not answer within \(Self.format(timeoutMs)) ms"))
            }
        }
        let engine = self.engine
        let operation: @Sendable () async -> Void = { [weak self] in
            let result: Result<JSONValue, BridgeError>
            do {
                result = .success(try await body(serviceCall))
            } catch {
                result = .failure(Self.bridgeError(from: error, target: target, action: action))
            }
            guard let engine, let self else { return }
            // A non-blocking action ends where it ran, on the JS thread: settle without a post,
            // unless `native.call` has not returned yet (JS does not know the call is pending).
            if engine.isLoopThread && !receiving {
                settle(id, result)
            } else {
                engine.post { [weak self] _ in self?.settle(id, result) }
            }
        }
        if executor == nil {
            call.task = Task.detached(operation: operation)
        } else {
            // Runs here until its first await: the transfer starts without a turn of the loop.
            receiving = true
            defer { receiving = false }
            call.task = Task.immediateDetached(executorPreference: executor, operation: operation)
        }
    }

    /// Records `error` for `native.takeError()` and returns the failed marker.
    private func failNow(_ error: BridgeError, target: String, action: String) -> ScriptValue? {
        lastError = error.jsonValue(target: target, action: action)
        return failedMarker
    }

    /// Runs an inline action and hands its answer to JS: a value converted, JSON text parsed by
    /// the engine in one call.
    private func answerNow(route index: Int, context: ScriptContext, _ body: () throws -> ServiceAnswer) -> ScriptValue? {
        let route = routes[index]
        let answer: ServiceAnswer
        do {
            answer = try body()
        } catch {
            return failNow(Self.bridgeError(from: error, target: route.target, action: route.action), target: route.target, action: route.action)
        }
        switch answer {
        case .value(let result):
            if let violation = resultViolation(result, route: index) { return failNow(violation, target: route.target, action: route.action) }
            return context.jsValue(from: result)
        case .jsonText(let text):
            switch value(ofJSONText: text, route: index, context: context) {
            case .success(let value): return value
            case .failure(let error): return failNow(error, target: route.target, action: route.action)
            }
        }
    }

    /// An answer's JSON text made a JS value by the engine in one parse; test mode first checks
    /// the text against the contract, as it checks values. Text that is not JSON is `corrupt`.
    private func value(ofJSONText text: [UInt8], route index: Int, context: ScriptContext) -> Result<ScriptValue, BridgeError> {
        if options.validatesResults {
            guard let result = try? JSONParser.parse(text) else { return .failure(Self.corrupt(routes[index])) }
            if let violation = resultViolation(result, route: index) { return .failure(violation) }
        }
        guard let value = context.jsValue(fromJSONText: text) else { return .failure(Self.corrupt(routes[index])) }
        return .success(value)
    }

    private static func corrupt(_ route: Route) -> BridgeError {
        .failed(reason: "corrupt", "\(route.target).\(route.action) answered with text that is not JSON")
    }

    /// The params as JSON, checked: an object, within the limits, valid against the contract.
    /// `text`, when JS sent it (`JSON.stringify(params)`, from a runtime client), stands for
    /// `params` and spares the walk; if it does not parse, `params` is walked, so errors keep
    /// their paths.
    private func checkedParams(_ params: ScriptValue, text: ScriptValue, route index: Int, context: ScriptContext) -> Result<JSONValue, BridgeError> {
        let value: JSONValue
        if let parsed = context.jsonValue(fromJSONText: text) {
            value = parsed
        } else {
            do {
                value = try context.jsonValue(from: params)
            } catch {
                if error.kind == .tooLarge { return .failure(BridgeError(.tooLarge, "params: \(error.message)")) }
                return .failure(BridgeError.badParams(error.path, error.message))
            }
        }
        guard case .object = value else {
            return .failure(BridgeError.badParams("", "expected an object, got \(value.typeName)"))
        }
        if routes[index].paramsValidator == nil {
            switch compile(route: index, .params) {
            case .failure(let error): return .failure(error)
            case .success(let validator): routes[index].paramsValidator = validator
            }
        }
        if let violation = routes[index].paramsValidator!.firstViolation(of: value) {
            var error = BridgeError.badParams(violation.path, violation.message)
            // An unexpected property: what the action takes, for a UI or a test to show.
            if let expected = violation.expectedProperties {
                var details: JSONObject = ["expected": .array(expected.map(JSONValue.string))]
                if let suggestion = violation.suggestion { details["suggestion"] = .string(suggestion) }
                error.details = .object(details)
            }
            return .failure(error)
        }
        return .success(value)
    }

    /// In test mode, how `result` breaks its contract, if it does.
    private func resultViolation(_ result: JSONValue, route index: Int) -> BridgeError? {
        guard options.validatesResults else { return nil }
        let route = routes[index]
        if route.resultValidator == nil {
            switch compile(route: index, .result) {
            case .failure(let error): return error
            case .success(let validator): routes[index].resultValidator = validator
            }
        }
        guard let violation = routes[index].resultValidator!.firstViolation(of: result) else { return nil }
        let at = violation.path.isEmpty ? "result" : "result\(violation.path)"
        return .failed(reason: "contract", "\(route.target).\(route.action) broke its contract: \(at): \(violation.message)")
    }

    private func compile(route index: Int, _ schema: Contract.Schema) -> Result<SchemaValidator, BridgeError> {
        let route = routes[index]
        guard let contract = contracts[route.target], contract.actions[route.action] != nil else {
            return .failure(.failed(reason: "no_contract", "\(route.target).\(route.action) has no contract in services/\(route.target).json"))
        }
        do {
            return .success(try contract.validator(schema, of: route.action))
        } catch {
            return .failure(.failed(reason: "contract", "services/\(route.target).json: \(route.action): \(error)"))
        }
    }

    // MARK: - Answering pending calls

    private func settle(_ id: Double, _ result: Result<JSONValue, BridgeError>) {
        // `pending` is the JS thread's alone: every answer is delivered there.
        engine?.assertOnLoopThread()
        switch result {
        case .success(let value): settle(id, result: value)
        case .failure(let error): settle(id, error: error)
        }
    }

    private func settle(_ id: Double, result: JSONValue) {
        guard let call = pending[id] else { return }
        if let violation = resultViolation(result, route: call.route) {
            settle(id, error: violation)
            return
        }
        finish(id, call, ok: true) { $0.jsValue(from: result) }
    }

    private func settle(_ id: Double, error: BridgeError) {
        guard let call = pending[id] else { return }
        call.task?.cancel()
        finish(id, call, ok: false) { $0.jsValue(from: error.jsonValue(target: call.target, action: call.action)) }
    }

    private func finish(_ id: Double, _ call: PendingCall, ok: Bool, value: (ScriptContext) -> ScriptValue) {
        pending[id] = nil
        if let timer = call.timer { engine?.clearTimer(timer) }
        defer { engine?.release() }
        guard let context, let settleFunction else { return }
        do {
            try context.call(settleFunction, [context.number(id), context.boolean(ok), value(context)])
        } catch {
            // A settle never throws on its own; a time-limit stop inside a continuation can.
            engine?.fail(error)
        }
    }

    private func shutDown() {
        for id in pending.keys.sorted() {
            guard let call = pending[id] else { continue }
            settle(id, error: BridgeError(.shutdown, "\(call.target).\(call.action) was abandoned: the host is shutting down"))
        }
        for object in [settleFunction, pendingMarker, failedMarker].compactMap({ $0 }) { context?.unprotect(object) }
        settleFunction = nil
        engine = nil
        for service in services { service.runEnded(app: app) }
    }

    static func format(_ ms: Double) -> String {
        ms.isFinite && ms == ms.rounded() && abs(ms) < 1e15 ? String(Int(ms)) : String(ms)
    }

    static func bridgeError(from error: any Error, target: String, action: String) -> BridgeError {
        switch error {
        case let error as BridgeError: error
        case is CancellationError: BridgeError(.cancelled, "\(target).\(action) was cancelled")
        default: .failed(reason: "internal", "\(target).\(action) failed: \(error)")
        }
    }
}
