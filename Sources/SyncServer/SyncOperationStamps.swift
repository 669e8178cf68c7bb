import SyncProtocol
import SystemIO

/// The server's clock for the op log: each op it logs gets a stamp (milliseconds since 1970) that
/// is never behind the server's wall clock and always past the op logged before it, a hybrid
/// logical clock that only the server moves. The fold orders writes by these stamps
/// (``OperationFold``), so no device can pin a row with a stamp from the future, and a device
/// whose clock is slow still wins with a later write. The device's own stamp is kept beside it
/// (``LoggedOperation/deviceTimestamp``), as the user's time.
///
/// ```swift
/// var stamps = SyncOperationStamps(last: lastLoggedStamp, now: clock.wallTime)
/// let logged = stamps.stamped(op)   // op with the server's stamp; fold and log it
/// ```
struct SyncOperationStamps {
    /// The last stamp given: that of the newest entry of the log, or, when compaction has taken
    /// them all, the newest row's (their stamps are the last ops' that changed them). A
    /// subquery each, so the second runs only when the log is empty.
    static let lastStampSQL = """
        SELECT COALESCE((SELECT timestamp FROM sync_log ORDER BY seq DESC LIMIT 1), (SELECT MAX(timestamp) FROM sync_row), 0)
        """

    /// Between two stamps of the same millisecond: a microsecond.
    static let step = 0.001

    private(set) var last: Double
    private let now: Double

    init(last: Double, now: WallTime) {
        self.last = last
        self.now = now.secondsSince1970 * 1000
    }

    /// `op` with the next stamp in place of the device's.
    mutating func stamped(_ op: SyncOperation) -> SyncOperation {
        // Adding a microsecond to a stamp near 1.8e12 moves it by four of its last bits: always up.
        last = max(now, last + Self.step)
        var op = op
        op.timestamp = last
        return op
    }
}
