import Engine
import Glibc
import ScriptSources

/// `hybrid repl`'s side of an app run: the app's main module loaded, then each input typed
/// evaluated on the app's JS thread while its event loop goes on (timers and subscriptions run
/// between inputs). Lines arrive from the thread that reads the terminal (``submit(_:completion:)``,
/// never from the JS thread), which collects them until they make a whole input (``ReplInput``:
/// compiled in a JavaScriptCore context of that thread's own, so an unfinished input never costs
/// the JS thread anything), then posts it. Its result comes back as text, formatted on the JS
/// thread by `js/runtime/repl.js`.
// @unchecked: `lines` and `transcript` are the reading thread's only (submit/finish/cancelInput/isCollecting, never the JS thread); `inputs`, `lexicalNames`, `knownLexicalNames` are touched only inside `engine.post` closures, on the JS thread.
public final class ReplSession: @unchecked Sendable {
    public let session: AppSession

    /// What one input printed: its value (`inspect`ed) or `Uncaught ...`.
    public struct Result: Sendable, Equatable {
        public let text: String
        public let failed: Bool
    }

    /// Tab's answer: the names that complete the text before the cursor, groups parted by "",
    /// and the end of that text they would replace (node's readline `completer` answer).
    public struct Completion: Sendable, Equatable {
        public let completions: [String]
        public let completeOn: String

        public init(completions: [String], completeOn: String) {
            self.completions = completions
            self.completeOn = completeOn
        }
    }

    // The reading thread's.
    private var lines: [String] = []
    private let checker = SyntaxChecker()
    /// Every line handed to ``submit(_:completion:)``, for `.save`.
    public private(set) var transcript: [String] = []
    // The JS thread's.
    private var inputs = 0
    /// Names the inputs declared with `let`, `const` or `class` at top level (``ReplInput/lexicalNames(_:)``).
    private var lexicalNames: [String] = []
    private var knownLexicalNames: Set<String> = []

    /// Inputs are TypeScript: each whole input is stripped of its types (esbuild, through
    /// ``ModuleTransformer``) before it is read as JavaScript.
    public let typeScript: Bool
    private let transformer: ModuleTransformer?

    public init(session: AppSession, typeScript: Bool = false) {
        self.session = session
        self.typeScript = typeScript
        transformer = typeScript ? ModuleTransformer() : nil
    }

    /// Installs the REPL's runtime, `require` (from the app's folder) and, for an app with a main
    /// module, runs it and waits for its top-level await: its exports are then `app`. Blocks the
    /// calling thread; a main module that throws is the result, failed.
    public func start() -> Result {
        let folder = session.manifest.directory
        let main = session.manifest.mainPath
        return wait { [self] completion in
            let posted = session.engine.post { context in
                do throws(ScriptError) {
                    guard let native = context.runtimeNative else { throw ScriptError(name: "Error", message: "the runtime is not installed") }
                    for (name, source) in ReplScript.sources {
                        try context.runPrelude(source, url: "hybrid:\(name)", native: native)
                    }
                    let isProxy = context.makeFunction { args in args.context.boolean(args.context.isProxy(args[0])) }
                    // Each value in a local while the next is made: the collector sees the stack, not
                    // an array literal's heap buffer.
                    let folderValue = context.string(folder), mainValue = context.string(main)
                    let callback = self.callback(completion, in: context)
                    try self.call("start", [folderValue, mainValue, callback, isProxy], in: context)
                } catch {
                    completion(Result(text: "Uncaught " + error.description, failed: true))
                }
            }
            if !posted { completion(Result(text: "the app has stopped", failed: true)) }
        }
    }

    /// Whether lines of an unfinished input are waiting for more (the prompt is then `... `).
    public var isCollecting: Bool { !lines.isEmpty }

    /// Adds a line typed. False while the input is unfinished (an open bracket, string or
    /// template, `1 +`); true when the input is whole and has been posted to the JS thread:
    /// `completion` then runs once, on the JS thread, when it has been evaluated (for an input that
    /// awaits, when its promise settles), or at once on this thread for TypeScript that esbuild
    /// refuses.
    public func submit(_ line: String, completion: @escaping @Sendable (Result) -> Void) -> Bool {
        lines.append(line)
        transcript.append(line)
        var source = lines.joined(separator: "\n")
        if let transformer {
            if ReplInput.isOpen(source) { return false }
            do {
                let trimmed = source.trimmingWhitespace
                // `{ a: 1 }` is an object, not a block, as in node (ReplInput does the same for JS).
                if trimmed.hasPrefix("{"), trimmed.hasSuffix("}"), let object = try? transformer.scriptFromTypeScript("(" + source + "\n)") {
                    source = object
                } else {
                    source = try transformer.scriptFromTypeScript(source)
                }
            } catch {
                if error.reason.hasPrefix("Unexpected end of file") { return false }
                lines.removeAll()
                completion(Result(text: "Uncaught SyntaxError: " + error.reason, failed: true))
                return true
            }
        }
        let input = ReplInput.read(ReplInput.dynamicImports(source), tracker: "__hybridRepl.track") {
            checker.scriptProblem($0)
        }
        if input == .incomplete { return false }
        lines.removeAll()
        evaluate(input, declaring: ReplInput.lexicalNames(source), completion: completion)
        return true
    }

    /// At the end of input: whatever was left unfinished is evaluated as typed (to report its
    /// SyntaxError). False when nothing was left.
    public func finish(completion: @escaping @Sendable (Result) -> Void) -> Bool {
        guard !lines.isEmpty else { return false }
        let source = lines.joined(separator: "\n")
        lines.removeAll()
        evaluate(.script(source), completion: completion)
        return true
    }

    /// Ctrl-C: the unfinished input is dropped.
    public func cancelInput() { lines.removeAll() }

    /// What Tab completes in `text` (the line before the cursor), as node's REPL answers it
    /// (js/runtime/repl.js): the REPL's commands after a leading dot, else global names or, after
    /// `a.b.`, the properties of what that chain holds, found without running any of the app's
    /// code. Nil when the JS thread does not answer within `seconds` (it is busy with an input
    /// or a timer that runs on): Tab then does nothing rather than keep the prompt waiting.
    public func complete(_ text: String, terminal: Bool = true, within seconds: Double = 2) -> Completion? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        if trimmed.first == ".", trimmed.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            let typed = String(trimmed.dropFirst())
            // Matched without regard to case, as node matches every completion.
            let names = ReplKeyword.commands(terminal: terminal).map(\.name).filter { $0.hasPrefix(typed.lowercased()) }
            return Completion(completions: names, completeOn: typed)
        }
        let box = Handoff<Completion>()
        let posted = session.engine.post { [self] context in
            do throws(ScriptError) {
                // One name a line, one completion a line: neither holds a line break.
                let names = context.string(lexicalNames.joined(separator: "\n"))
                let answer = context.stringify(try call("complete", [context.string(text), names], in: context))
                    .split(separator: "\n", omittingEmptySubsequences: false)
                box.put(Completion(completions: answer.dropFirst().map(String.init), completeOn: String(answer.first ?? "")))
            } catch {
                box.put(Completion(completions: [], completeOn: ""))
            }
        }
        guard posted else { return nil }
        return box.take(within: seconds)
    }

    /// Blocks until `completion` has been called, for the command line's sequential steps.
    public func wait(_ start: (@escaping @Sendable (Result) -> Void) -> Void) -> Result {
        let box = Handoff<Result>()
        start { box.put($0) }
        return box.take()
    }

    private func evaluate(_ input: ReplInput, declaring names: [String] = [], completion: @escaping @Sendable (Result) -> Void) {
        let posted = session.engine.post { [self] context in
            for name in names where knownLexicalNames.insert(name).inserted { lexicalNames.append(name) }
            inputs += 1
            let url = "REPL\(inputs)"
            let source: String
            let asynchronous: Bool
            switch input {
            case .script(let text): (source, asynchronous) = (text, false)
            case .asynchronous(let text): (source, asynchronous) = (text, true)
            case .incomplete: return
            }
            do throws(ScriptError) {
                let outcome = context.evaluateCatching(source, url: url)
                if let exception = outcome.exception, context.scriptError(from: exception).isTimeLimit {
                    // --time-limit stopped it: said as `hybrid run` says it, and the prompt goes on.
                    let error = context.scriptError(from: exception)
                    completion(Result(text: AppSession.report(error, timeLimit: session.engine.options.timeLimitSeconds), failed: true))
                } else if let exception = outcome.exception {
                    completion(Result(text: try text(call("uncaught", [exception], in: context), in: context), failed: true))
                } else if asynchronous {
                    try call("settle", [outcome.value ?? context.undefined, callback(completion, in: context)], in: context)
                } else {
                    completion(Result(text: try text(call("show", [outcome.value ?? context.undefined], in: context), in: context), failed: false))
                }
            } catch {
                completion(Result(text: "Uncaught " + error.description, failed: true))
            }
        }
        if !posted { completion(Result(text: "the app has stopped", failed: true)) }
    }

    /// `__hybridRepl[name](...arguments)` (js/runtime/repl.js).
    @discardableResult
    private func call(_ name: String, _ arguments: [ScriptValue], in context: ScriptContext) throws(ScriptError) -> ScriptValue {
        guard let repl = context.object(context.get(context.global, "__hybridRepl")),
              let function = context.object(context.get(repl, name)) else {
            throw ScriptError(name: "Error", message: "the REPL runtime is not installed")
        }
        return try context.call(function, arguments)
    }

    private func text(_ value: ScriptValue, in context: ScriptContext) throws(ScriptError) -> String { context.stringify(value) }

    /// A JS function `(text, failed) => completion(...)`.
    private func callback(_ completion: @escaping @Sendable (Result) -> Void, in context: ScriptContext) -> ScriptValue {
        context.makeFunction { args in
            completion(Result(text: args.context.stringify(args[0]), failed: args.context.stringify(args[1]) == "true"))
            return nil
        }
    }

    /// One value handed from the JS thread to a thread that blocks for it.
    // @unchecked: `result` is read and written only with `mutex` held (pthread), and `condition` is used only with it; both in memory of their own (a class's stored property has no address Swift promises to keep).
    private final class Handoff<Value: Sendable>: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var result: Value?

        init() {
            mutex.initialize(to: pthread_mutex_t())
            condition.initialize(to: pthread_cond_t())
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func put(_ value: Value) {
            pthread_mutex_lock(mutex)
            if result == nil { result = value }
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        func take() -> Value {
            pthread_mutex_lock(mutex)
            while result == nil { pthread_cond_wait(condition, mutex) }
            let value = result!
            pthread_mutex_unlock(mutex)
            return value
        }

        /// The value, or nil when none came within `seconds`.
        func take(within seconds: Double) -> Value? {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let nanoseconds = Int(now.tv_nsec) + Int(seconds * 1_000_000_000)
            var deadline = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
            pthread_mutex_lock(mutex)
            while result == nil && pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT {}
            let value = result
            pthread_mutex_unlock(mutex)
            return value
        }
    }
}

private extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
