import Engine
import JSON

/// A native service: a named target with actions (Target-Action, as in CTMediator).
///
/// Registration is explicit, with no runtime reflection: a service lists its actions and says for
/// each where it runs. JS reaches a service only through the bridge, and a service reaches JS only
/// by answering a call: it has no handle on the engine.
///
/// ```swift
/// struct ClockService: BridgeService {
///     let target = "clock"
///     var actions: [String: ServiceAction] {
///         ["now": .inline { _ in .number(Double(time(nil))) }]
///     }
/// }
/// ```
public protocol BridgeService: Sendable {
    /// The name JS calls it by: `Hybrid.call(target, ...)`.
    var target: String { get }
    /// Every action, by name. Each must have a contract in `services/<target>.json`.
    var actions: [String: ServiceAction] { get }
    /// Counters the service's JS client reads without a call, by name, for `app`: the bridge
    /// hands them to runtime scripts as `native.counters.<target>.<name>`, a `Uint32Array` whose
    /// `[0]` moves when the service says something changed. None by default.
    func sharedCounters(for app: AppContext) -> [String: SharedCounter]
    /// The canonical form of the qualifier a `target:qualifier` grant writes (`network:HOST`'s
    /// host), the form the service compares with; a ``GrantError`` saying why when it names
    /// nothing the service could check. By default, the qualifier lower-cased.
    func grantQualifier(_ written: String) throws(GrantError) -> String
    /// The app's run has ended (its engine shut down): work the service does in the background
    /// for `app` (the network service's offline queue senders) stops. Nothing by default.
    func runEnded(app: AppContext)
}

extension BridgeService {
    public func sharedCounters(for app: AppContext) -> [String: SharedCounter] { [:] }
    public func grantQualifier(_ written: String) throws(GrantError) -> String { written.lowercased() }
    public func runEnded(app: AppContext) {}
}

/// One action of a service, and where it runs.
///
/// An action that reads params names the ``ActionParams`` type they decode into, and its body
/// receives the typed value beside the call:
///
/// ```swift
/// "delete": .worker(KeyValueDeleteParams.self) { call, params in
///     ["deleted": .bool(try await store(call).delete(bucket: params.bucket, key: params.key))]
/// }
/// ```
public struct ServiceAction: Sendable {
    public enum Placement: Sendable {
        /// On the JS thread, synchronously: for cheap, non-blocking work (`echo`, `describe`).
        case inline(@Sendable (ServiceCall) throws -> JSONValue)
        /// As `inline`, for an action whose answer often exists as JSON text already (a stored
        /// row): the text goes to JS in one engine parse, without a ``JSONValue`` in between.
        case inlineAnswer(@Sendable (ServiceCall) throws -> ServiceAnswer)
        /// On a worker, as a Swift task: for I/O. A timed-out or cancelled call cancels the task,
        /// which the service sees as `Task.isCancelled` or a cancellation handler.
        case worker(@Sendable (ServiceCall) async throws -> JSONValue)
        /// As a Swift task on the JS thread's executor: for work that only awaits other threads
        /// (a transfer on the curl thread) and never blocks. The call starts and settles on the JS
        /// thread, without the two hand-offs to a worker and back that `.worker` costs. Anything
        /// that may block (a file, SQLite) belongs in `.worker`, or hops off with
        /// `withTaskExecutorPreference(globalConcurrentExecutor)`.
        case nonBlocking(@Sendable (ServiceCall) async throws -> JSONValue)
    }

    public let placement: Placement

    public static func inline(_ body: @escaping @Sendable (ServiceCall) throws -> JSONValue) -> ServiceAction {
        ServiceAction(placement: .inline(body))
    }

    public static func inlineAnswer(_ body: @escaping @Sendable (ServiceCall) throws -> ServiceAnswer) -> ServiceAction {
        ServiceAction(placement: .inlineAnswer(body))
    }

    public static func worker(_ body: @escaping @Sendable (ServiceCall) async throws -> JSONValue) -> ServiceAction {
        ServiceAction(placement: .worker(body))
    }

    public static func nonBlocking(_ body: @escaping @Sendable (ServiceCall) async throws -> JSONValue) -> ServiceAction {
        ServiceAction(placement: .nonBlocking(body))
    }

    // Typed: each decodes the call's params into `Params` once, before the body runs. Actions
    // that take no params (or echo them whole) use the untyped forms above.

    /// `inline`, with the params decoded as `Params`.
    @inlinable
    public static func inline<Params: ActionParams>(_: Params.Type, _ body: @escaping @Sendable (ServiceCall, Params) throws -> JSONValue) -> ServiceAction {
        .inline { call in try body(call, try Params(param: call.params, at: .root)) }
    }

    /// `inlineAnswer`, with the params decoded as `Params`.
    @inlinable
    public static func inlineAnswer<Params: ActionParams>(_: Params.Type, _ body: @escaping @Sendable (ServiceCall, Params) throws -> ServiceAnswer) -> ServiceAction {
        .inlineAnswer { call in try body(call, try Params(param: call.params, at: .root)) }
    }

    /// `worker`, with the params decoded as `Params`.
    @inlinable
    public static func worker<Params: ActionParams>(_: Params.Type, _ body: @escaping @Sendable (ServiceCall, Params) async throws -> JSONValue) -> ServiceAction {
        .worker { call in try await body(call, try Params(param: call.params, at: .root)) }
    }

    /// `nonBlocking`, with the params decoded as `Params`.
    @inlinable
    public static func nonBlocking<Params: ActionParams>(_: Params.Type, _ body: @escaping @Sendable (ServiceCall, Params) async throws -> JSONValue) -> ServiceAction {
        .nonBlocking { call in try await body(call, try Params(param: call.params, at: .root)) }
    }

    public var runsInline: Bool {
        switch placement {
        case .inline, .inlineAnswer: true
        case .worker, .nonBlocking: false
        }
    }

    /// Runs the action on the calling task, wherever it is placed, without the bridge's checks:
    /// for tests and tools that call a service directly.
    public func perform(_ call: ServiceCall) async throws -> JSONValue {
        switch placement {
        case .inline(let body): try body(call)
        case .inlineAnswer(let body): try body(call).value()
        case .worker(let body), .nonBlocking(let body): try await body(call)
        }
    }
}

/// What an `inlineAnswer` action hands back: a value, or the JSON text of one.
public enum ServiceAnswer: Sendable {
    case value(JSONValue)
    /// UTF-8 JSON text, as stored. If it turns out not to be JSON, the call fails with
    /// `E_FAILED` (reason `corrupt`), naming the target and action.
    case jsonText([UInt8])

    /// The answer as a value: the text parsed.
    public func value() throws -> JSONValue {
        switch self {
        case .value(let value): value
        case .jsonText(let text): try JSONParser.parse(text)
        }
    }
}

/// What a service receives for one call: validated params and the calling app.
public struct ServiceCall: Sendable {
    public let target: String
    public let action: String
    /// The params, already checked against the action's contract.
    public let params: JSONValue
    public let app: AppContext

    public init(target: String, action: String, params: JSONValue, app: AppContext) {
        self.target = target
        self.action = action
        self.params = params
        self.app = app
    }
}

/// The app a call comes from.
/// A class: every call carries it, and one reference is cheaper to pass than its fields.
public final class AppContext: Sendable {
    public let name: String
    public let version: String
    /// Where the app's data lives (databases, the device id, downloads). Created before the run.
    public let dataDirectory: String
    public let grants: Grants
    /// What followed `--` on the command line; JS reads it as `Hybrid.args`.
    public let arguments: [String]
    /// What the app may use (`app.json` `quotas`).
    public let quotas: AppQuotas
    /// How its requests run per host (`app.json` `network`).
    public let network: AppNetworkSettings

    /// Whether the app may reach `host` over the network (its `network:HOST` grants): the policy
    /// every service that talks HTTP passes to the transport, checked at every redirect. `host` is
    /// in the canonical form the network service writes its grants in (CurlTransport's
    /// `URLTarget.host`), and compared as it is.
    public var allowsHost: @Sendable (String) -> Bool {
        let grants = self.grants
        return { host in grants.allows(target: "network", qualifier: host) }
    }

    public init(name: String, version: String, dataDirectory: String, grants: Grants, arguments: [String] = [],
                quotas: AppQuotas = .defaults, network: AppNetworkSettings = .defaults) {
        self.name = name
        self.version = version
        self.dataDirectory = dataDirectory
        self.grants = grants
        self.arguments = arguments
        self.quotas = quotas
        self.network = network
    }
}
