import HTTPServing
import SyncProtocol

/// One entry of the op log as the store keeps it, whoever may see it: its columns and the log keys
/// it is filed under (``LogKey``). ``RecentLog`` keeps the newest in memory and makes each device's
/// view of them with ``operation(for:)``, as the store's own pull does.
public struct LogEntry: Sendable, Equatable {
    var seq: Int
    var deviceId: String
    var opId: String
    var dataId: String
    var table: String
    var type: String
    var data: String?
    var dependencyId: String?
    /// The server's stamp, which the fold orders by (``LoggedOperation``).
    var timestamp: Double
    /// The device's; nil for an entry logged before the server stamped ops.
    var deviceTimestamp: Double?
    var scopeBefore: String?
    var image: String?
    var keys: Set<String>

    /// Whether a device reading `keys` (nil: the whole log) pulls this entry: one of its keys is
    /// one of the entry's, byte for byte, as the store's pull matches them. A `Set<String>` finds
    /// the member canonically equal to a key (`s:team:caf\u{E9}` for `s:team:cafe\u{301}`), at
    /// most one, so its bytes are compared after.
    func isRead(byKeys keys: Set<String>?) -> Bool {
        guard let keys else { return true }
        return self.keys.contains { filed in
            keys.firstIndex(of: filed).map { ByteString(keys[$0]) == ByteString(filed) } ?? false
        }
    }

    /// The op as `device` sees it (``ScopedFold/logged(seq:deviceId:opId:dataId:table:typeName:dataText:dependencyId:timestamp:deviceTimestamp:scopeBefore:imageText:for:)``).
    func operation(for device: DeviceIdentity) throws -> LoggedOperation {
        try ScopedFold.logged(seq: seq, deviceId: deviceId, opId: opId, dataId: dataId, table: table, typeName: type, dataText: data,
                              dependencyId: dependencyId, timestamp: timestamp, deviceTimestamp: deviceTimestamp, scopeBefore: scopeBefore,
                              imageText: image, for: device)
    }
}

/// The log's entries after a seq, read in one snapshot (``SyncStore/logTail(after:limit:)``).
public struct LogTail: Sendable {
    var entries: [LogEntry]
    /// Whether entries after the last one exist: read again from it.
    var more: Bool
    /// The seq through which the log was compacted, as of the same snapshot.
    var compactedThrough: Int
    /// The log's last seq, as of the same snapshot (the last entry's, or earlier when none follow).
    var lastSeq: Int
}
