import ServiceLifecycle
import SystemIO

/// Gives the memory of closed connections back to the kernel once a crowd of them has gone.
///
/// A connection's buffers and tasks are freed when it closes, but glibc's malloc keeps what it
/// freed in its arenas: after 20,000 idle connections opened against a server with its default
/// limits and closed, it stayed 40% above its idle size for good (BENCHMARKS.md, "Idle
/// connections"). Every few seconds this looks at the most connections open since its last look;
/// when at least ``threshold`` of them have closed, it asks malloc to return its free pages
/// (``ResidentMemory/releaseFreed()``). A server whose connections come and go a few at a time
/// never gets there, and pays nothing.
struct FreedMemoryRelease: Service {
    let connections: ConnectionTable
    var interval: Duration = .seconds(5)
    var threshold = 256

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                let (highest, open) = connections.takeHighWater()
                if highest - open >= threshold { ResidentMemory.releaseFreed() }
            }
        }
    }
}
