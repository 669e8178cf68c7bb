// The Bridge module: envelopes, the service registry, contracts and their validation, grants.
// It is the only mediator between JS and services. It must answer every call exactly once
// (result, error, timeout, cancellation or shutdown) and must never let a service run JS.
import CJavaScriptCore
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
public final class BridgeDispatcher: @unchecked Sendable {
    let app: AppContext
    let options: BridgeOptions
    let actions: [String: [String: ServiceAction]]
    let contracts: [String: Contract]

    // JS thread only.
    private var validators: [String: SchemaValidator] = [:]
    private var pending: [Double: PendingCall] = [:]
    private var settleFunction: JSObjectRef?
    private weak var engine: JSEngine?
    private var context: ScriptContext?

    final class PendingCall {
        let target: String
        let action: String
        var task: Task<Void, Never>?
        var timer: Int?

        init(target: String, action: String) {
            self.target = target
            self.action = action
        }
    }

    public init(registry: ServiceRegistry, contracts: [String: Contract], app: AppContext, options: BridgeOptions = BridgeOptions()) {
        var registry = registry
        if registry["bridge"] == nil { registry.register(BridgeTarget(contracts: contracts, grants: app.grants)) }
        var actions: [String: [String: ServiceAction]] = [:]
        for (target, service) in registry.services { actions[target] = service.actions }
        self.actions = actions
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
            guard let function = args.context.object(args[0]) else { throw NativeFunctionError("attach: expected a function") }
            args.context.protect(function)
            settleFunction = function
            return nil
        }
        context.setFunction(native, "call") { [unowned self] args in
            receive(args)
            return nil
        }
        context.setFunction(native, "cancel") { [unowned self] args in
            let id = JSValueToNumber(args.context.ref, args[0], nil)
            if let call = pending[id] {
                settle(id, error: BridgeError(.cancelled, "\(call.target).\(call.action) was cancelled"))
            }
            return nil
        }
        context.set(native, "args", context.jsValue(from: .array(app.arguments.map { .string($0) })))
        engine.onShutdown { [unowned self] _ in shutDown() }
        for (name, source) in BridgeClientScript.sources {
            try context.runPrelude(source, url: "hybrid:\(name)", native: native)
        }
    }

    /// The number of calls not yet answered.
    public var pendingCount: Int { pending.count }

    // MARK: - Receiving a call

    private func receive(_ args: NativeArguments) {
        let context = args.context
        let id = JSValueToNumber(context.ref, args[0], nil)
        let target = JSValueIsString(context.ref, args[1]) ? context.stringify(args[1]) : ""
        let action = JSValueIsString(context.ref, args[2]) ? context.stringify(args[2]) : ""
        let call = PendingCall(target: target, action: action)
        pending[id] = call
        engine?.hold()

        let timeout = args[4]
        if JSValueIsNumber(context.ref, timeout) {
            let ms = JSValueToNumber(context.ref, timeout, nil)
            guard ms.isFinite, ms > 0 else {
                settle(id, error: BridgeError(.badParams, "options.timeoutMs: expected a positive number of milliseconds, got \(ms)", path: nil))
                return
            }
            call.timer = engine?.addNativeTimer(delayMs: ms) { [unowned self] in
                guard let call = pending[id] else { return }
                call.timer = nil
                settle(id, error: BridgeError(.timeout, "\(target).\(action) did not answer within \(Int(ms)) ms"))
            }
        } else if !JSValueIsUndefined(context.ref, timeout) && !JSValueIsNull(context.ref, timeout) {
            settle(id, error: BridgeError(.badParams, "options.timeoutMs: expected a number of milliseconds"))
            return
        }

        let outcome = prepare(target: target, action: action, params: args[3], context: context)
        switch outcome {
        case .failure(let error):
            settle(id, error: error)
        case .success(let (run, serviceCall)):
            switch run.placement {
            case .inline(let body):
                do {
                    settle(id, result: try body(serviceCall))
                } catch {
                    settle(id, error: Self.bridgeError(from: error, target: target, action: action))
                }
            case .worker(let body):
                let engine = self.engine
                call.task = Task.detached { [weak self] in
                    let result: Result<JSONValue, BridgeError>
                    do {
                        result = .success(try await body(serviceCall))
                    } catch {
                        result = .failure(Self.bridgeError(from: error, target: target, action: action))
                    }
                    guard let engine, self != nil else { return }
                    engine.post { [weak self] _ in
                        guard let self else { return }
                        switch result {
                        case .success(let value): settle(id, result: value)
                        case .failure(let error): settle(id, error: error)
                        }
                    }
                }
            }
        }
    }

    /// Everything checked before a call runs, in SPEC order: target, grant, action, params.
    private func prepare(target: String, action: String, params: JSValueRef, context: ScriptContext)
        -> Result<(ServiceAction, ServiceCall), BridgeError>
    {
        guard let targetActions = actions[target] else {
            let known = actions.keys.sorted().joined(separator: ", ")
            return .failure(BridgeError(.unknownTarget, "unknown target \"\(target)\"; registered targets: \(known)"))
        }
        guard app.grants.allows(target: target) else {
            return .failure(BridgeError(.denied, "app \"\(app.name)\" has no grant for \"\(target)\"; add it to the grants in app.json (or --grant \(target))"))
        }
        guard let run = targetActions[action] else {
            let known = targetActions.keys.sorted().joined(separator: ", ")
            return .failure(BridgeError(.unknownAction, "\(target) has no action \"\(action)\"; its actions: \(known)"))
        }
        let value: JSONValue
        do {
            value = try context.jsonValue(from: params)
        } catch {
            if error.kind == .tooLarge { return .failure(BridgeError(.tooLarge, "params: \(error.message)")) }
            return .failure(BridgeError.badParams(error.path, error.message))
        }
        guard case .object = value else {
            return .failure(BridgeError.badParams("", "expected an object, got \(value.typeName)"))
        }
        switch validator(target: target, action: action, schema: \.params) {
        case .failure(let error): return .failure(error)
        case .success(let validator):
            if let violation = validator?.firstViolation(of: value) {
                return .failure(BridgeError.badParams(violation.path, violation.message))
            }
        }
        return .success((run, ServiceCall(target: target, action: action, params: value, app: app)))
    }

    /// The compiled schema of an action's params or result, compiled on first use.
    private func validator(target: String, action: String, schema: KeyPath<Contract.Action, JSONValue>)
        -> Result<SchemaValidator?, BridgeError>
    {
        let key = "\(target).\(action)\(schema == \Contract.Action.params ? "" : "#result")"
        if let cached = validators[key] { return .success(cached) }
        guard let contract = contracts[target]?.actions[action] else {
            return .failure(.failed(reason: "no_contract", "\(target).\(action) has no contract in services/\(target).json"))
        }
        do {
            let validator = try SchemaValidator(schema: contract[keyPath: schema])
            validators[key] = validator
            return .success(validator)
        } catch {
            return .failure(.failed(reason: "contract", "services/\(target).json: \(action): \(error)"))
        }
    }

    // MARK: - Answering

    private func settle(_ id: Double, result: JSONValue) {
        guard let call = pending[id] else { return }
        if options.validatesResults {
            switch validator(target: call.target, action: call.action, schema: \.result) {
            case .failure(let error):
                settle(id, error: error)
                return
            case .success(let validator):
                if let violation = validator?.firstViolation(of: result) {
                    let at = violation.path.isEmpty ? "result" : "result\(violation.path)"
                    settle(id, error: .failed(reason: "contract", "\(call.target).\(call.action) broke its contract: \(at): \(violation.message)"))
                    return
                }
            }
        }
        finish(id, call, ok: true) { $0.jsValue(from: result) }
    }

    private func settle(_ id: Double, error: BridgeError) {
        guard let call = pending[id] else { return }
        call.task?.cancel()
        finish(id, call, ok: false) { $0.jsValue(from: error.jsonValue(target: call.target, action: call.action)) }
    }

    private func finish(_ id: Double, _ call: PendingCall, ok: Bool, value: (ScriptContext) -> JSValueRef) {
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
        if let settleFunction { context?.unprotect(settleFunction) }
        settleFunction = nil
    }

    static func bridgeError(from error: any Error, target: String, action: String) -> BridgeError {
        switch error {
        case let error as BridgeError: error
        case is CancellationError: BridgeError(.cancelled, "\(target).\(action) was cancelled")
        default: .failed(reason: "internal", "\(target).\(action) failed: \(error)")
        }
    }
}
