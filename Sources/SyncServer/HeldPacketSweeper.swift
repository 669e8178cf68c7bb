import Foundation
import Logging
import ServiceLifecycle

/// Rejects held packets whose dependency is overdue, on a timer, so a packet nobody asks about is
/// still settled within about a second of its deadline. Pushes sweep too; this covers the quiet times.
struct HeldPacketSweeper: Service {
    let store: any SyncStore
    let holdSeconds: Double
    let interval: Double
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.sweep(now: Date().timeIntervalSince1970, holdSeconds: holdSeconds)
                } catch {
                    logger.error("sweep of held packets failed: \(error)")
                }
                try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
        }
    }
}
