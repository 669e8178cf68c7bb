import HTTPServing
import Synchronization

/// How many pulls each user holds open at once (`--max-held-pulls-per-user`): each is a socket and
/// a waiting task, and without a bound one token could hold the server's descriptors by itself,
/// however many devices it registered.
///
/// ```swift
/// guard quota.take("alice") else { /* 429 */ }
/// defer { quota.release("alice") }
/// ```
final class HeldPullQuota: Sendable {
    let limit: Int
    // By the holder's UTF-8 bytes, as the store tells users apart.
    private let holding = Mutex<[ByteString: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// One more pull held for `holder`, unless it holds ``limit`` already.
    func take(_ holder: String) -> Bool {
        holding.withLock { holding in
            let holder = ByteString(holder)
            let count = holding[holder, default: 0]
            guard count < limit else { return false }
            holding[holder] = count + 1
            return true
        }
    }

    func release(_ holder: String) {
        holding.withLock { holding in
            let holder = ByteString(holder)
            let count = holding[holder, default: 1] - 1
            holding[holder] = count > 0 ? count : nil
        }
    }
}
