import CMallocStats

/// What glibc's malloc holds: the bytes handed out and not yet freed, and the bytes it has taken
/// from the system for them (freed memory it keeps for reuse is the difference). Beside the
/// process's resident size, it tells native memory from JavaScriptCore's heap, which has
/// allocators of its own.
///
/// ```swift
/// let malloc = MallocFigures.now()
/// print(malloc.inUse, malloc.fromSystem)
/// ```
public struct MallocFigures: Sendable {
    public let inUse: Int
    public let fromSystem: Int

    public static func now() -> MallocFigures {
        var inUse = 0, fromSystem = 0
        cmalloc_figures(&inUse, &fromSystem)
        return MallocFigures(inUse: inUse, fromSystem: fromSystem)
    }
}
