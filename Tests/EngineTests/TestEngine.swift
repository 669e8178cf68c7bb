import Engine
import Foundation
import JSON
import Synchronization

/// An engine for one test, with its console output captured. Tests reach it only through
/// ``withEngine(timeLimit:_:)``, which shuts it down however the test ends.
final class TestEngine: Sendable {
    let engine: JSEngine
    let output: CapturedOutput

    fileprivate init(timeLimit: Double?) {
        let output = CapturedOutput()
        self.output = output
        engine = JSEngine(options: EngineOptions(timeLimitSeconds: timeLimit, output: { fd, text in output.append(fd, text) }))
    }

    /// Evaluates `source` as one task, as `hybrid run` loads a main module: an exception it throws
    /// ends the run, and ``idle()`` reports it.
    func start(_ source: String, url: String = "/virtual/main.js") {
        let engine = self.engine
        engine.post { context in
            do throws(ScriptError) {
                try context.evaluate(source, url: url)
            } catch {
                engine.fail(error)
            }
        }
    }

    /// Loads `path` as the main CommonJS module, as `hybrid run` does.
    func startMain(_ path: String) {
        let engine = self.engine
        engine.post { context in
            do throws(ScriptError) {
                try context.runMain(path)
            } catch {
                engine.fail(error)
            }
        }
    }

    /// Evaluates `source` and converts what it returns.
    func evaluate(_ source: String, url: String = "/virtual/eval.js") async throws -> JSONValue {
        try await engine.perform { context in
            try context.jsonValue(from: try context.evaluate(source, url: url))
        }
    }

    /// Evaluates `source` expecting a JS exception, and returns it.
    func exception(from source: String, url: String = "/virtual/eval.js") async throws -> ScriptError {
        try await engine.perform { context -> ScriptError in
            do throws(ScriptError) {
                try context.evaluate(source, url: url)
            } catch {
                return error
            }
            throw UnexpectedSuccess(source: source)
        }
    }

    /// Hands `value` to JS as the global `name`.
    func define(_ name: String, _ value: JSONValue) async throws {
        try await engine.perform { context in
            context.set(context.global, name, context.jsValue(from: value))
        }
    }

    func idle() async -> EngineOutcome { await engine.idle() }
}

/// Runs `body` with a fresh engine, shut down when `body` returns or throws.
func withEngine<T>(timeLimit: Double? = nil, _ body: (TestEngine) async throws -> T) async throws -> T {
    let host = TestEngine(timeLimit: timeLimit)
    defer { host.engine.shutdown() }
    return try await body(host)
}

/// What `console` wrote, by stream.
final class CapturedOutput: Sendable {
    private let texts = LockedValue<[(fd: Int32, text: String)]>([])

    func append(_ fd: Int32, _ text: String) { texts.update { $0.append((fd, text)) } }

    var standardOutput: String { texts.read { $0.filter { $0.fd == 1 }.map(\.text).joined() } }
    var standardError: String { texts.read { $0.filter { $0.fd == 2 }.map(\.text).joined() } }
}

/// A value shared between the JS thread and the test, behind the standard library's `Mutex`.
final class LockedValue<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }

    func read<T: Sendable>(_ body: (Value) -> T) -> T { value.withLock { body($0) } }

    func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
}

struct UnexpectedSuccess: Error, CustomStringConvertible {
    let source: String
    var description: String { "expected an exception from: \(source)" }
}

/// A folder of files for one test, removed when `body` ends.
func withFiles<T>(_ files: [String: String], _ body: (String) async throws -> T) async throws -> T {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("engine-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    for (path, text) in files {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return try await body(root.path)
}

extension EngineOutcome {
    /// The error of a failed run; nil when it went idle.
    var failure: ScriptError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
