import Synchronization

/// The source maps of one engine's modules, by the URL each generated file was compiled under,
/// and the rewriting of stack traces from generated positions to original ones.
///
/// Positions come in as JavaScriptCore reports them: `line` and `column` 1-based, the column in
/// UTF-16 code units and, on line 1 of a module, counted from the start of the wrapper the loader
/// puts before the module's first line (`firstLineColumnOffset`). They go out 1-based, as node
/// prints them: `cart.ts:6:17` is line 6, column 17 of the TypeScript.
///
/// ```swift
/// registry.register(url: "/app/cart.js", map: map, firstLineColumnOffset: 62)
/// registry.remap(stack: "total@/app/cart.js:27:22")   // "total@/app/cart.ts:7:17"
/// ```
///
/// Safe from any thread: the engine registers on its JS thread, and a report may be written on
/// another.
public final class SourceMapRegistry: Sendable {
    private struct Entry: Sendable {
        let map: PendingSourceMap
        let firstLineColumnOffset: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// Maps positions in `url` (the name the generated code was compiled under, the one its
    /// stack frames carry) through `map`. `firstLineColumnOffset`: how many UTF-16 code units the
    /// loader put before the generated file's first line. Registering a URL again replaces its map.
    public func register(url: String, map: SourceMap, firstLineColumnOffset: Int = 0) {
        entries.withLock { $0[url] = Entry(map: PendingSourceMap(map), firstLineColumnOffset: firstLineColumnOffset) }
    }

    /// The same, with the map read and parsed only when a stack first needs it (`load` returns
    /// nil when it cannot be had: positions in `url` then stay as they are). A warm start of a
    /// TypeScript app registers its maps this way, from the transform cache.
    public func register(url: String, firstLineColumnOffset: Int = 0, load: @escaping @Sendable () -> SourceMap?) {
        entries.withLock { $0[url] = Entry(map: PendingSourceMap(load), firstLineColumnOffset: firstLineColumnOffset) }
    }

    public func unregister(url: String) {
        _ = entries.withLock { $0.removeValue(forKey: url) }
    }

    public func contains(url: String) -> Bool {
        entries.withLock { $0[url] != nil }
    }

    public var isEmpty: Bool { entries.withLock { $0.isEmpty } }

    /// Where `location` (as JavaScriptCore reports it) came from, 1-based; nil when its URL has no
    /// map or the map has no mapping there.
    public func original(_ location: StackLocation) -> StackLocation? {
        guard let entry = entries.withLock({ $0[location.url] }) else { return nil }
        return Self.original(location, in: entry)
    }

    /// `stack` with every `url:line:column` of a URL with a map rewritten to the original file,
    /// line and column: frames (`fn@url:L:C`, `    at fn (url:L:C)`) and plain mentions alike.
    /// Locations of other URLs, and those a map does not cover, are left as they are.
    public func remap(stack: String) -> String {
        let known = entries.withLock { $0 }
        guard !known.isEmpty else { return stack }
        return StackLocations.rewrite(stack, knows: { known[$0] != nil }) { location in
            known[location.url].flatMap { Self.original(location, in: $0) }
        }
    }

    private static func original(_ location: StackLocation, in entry: Entry) -> StackLocation? {
        let line = location.line - 1
        let column = location.column - 1 - (location.line == 1 ? entry.firstLineColumnOffset : 0)
        guard line >= 0, let map = entry.map.value, let position = map.original(line: line, column: max(0, column)) else { return nil }
        return StackLocation(url: position.source, line: position.line + 1, column: position.column + 1)
    }
}

/// A source map, or the way to get it, resolved once.
private final class PendingSourceMap: Sendable {
    private enum State { case loaded(SourceMap?), pending(@Sendable () -> SourceMap?) }
    private let state: Mutex<State>

    init(_ map: SourceMap) { state = Mutex(.loaded(map)) }
    init(_ load: @escaping @Sendable () -> SourceMap?) { state = Mutex(.pending(load)) }

    var value: SourceMap? {
        state.withLock { state in
            switch state {
            case .loaded(let map):
                return map
            case .pending(let load):
                let map = load()
                state = .loaded(map)
                return map
            }
        }
    }
}
