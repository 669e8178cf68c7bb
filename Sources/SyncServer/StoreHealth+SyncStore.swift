import HTTPServing
import SyncProtocol
import SystemIO

extension StoreHealth {
    /// Times ``SyncStore/ping()``: the sync server's `GET /v1/health` and each metrics scrape.
    static func check(_ store: any SyncStore, timeout: Duration, on clock: any HostClock) async -> StoreHealth {
        await check(kind: store.kind, timeout: timeout, on: clock,
                    describe: { ($0 as? SyncServerError)?.message ?? PostgresSyncStore.describe($0) }) { try await store.ping() }
    }
}
