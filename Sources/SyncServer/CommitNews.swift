import JSON

/// What a store says of a commit that logged ops (``SyncStore/watchCommits(_:)``): the log keys
/// it wrote under, so that only the held pulls reading one of them wake, and, when the store can
/// carry them (PostgreSQL's NOTIFY payload, while it fits), the commit's entries themselves, so
/// that ``RecentLog`` appends them instead of reading them back. With several instances each one
/// hears every commit: reading each back cost every instance a statement per commit.
public struct CommitNews: Sendable, Equatable {
    /// The keys the commit's ops were filed under; nil: anywhere (every held pull looks).
    public var keys: Set<String>?
    /// The commit's entries, all of them, and the log's last seq before them: the commit logged
    /// exactly the seqs in (`after`, `after` + entries.count]. Nil when not carried.
    public var entries: [LogEntry]?
    public var after: Int?

    public init(keys: Set<String>?, entries: [LogEntry]? = nil, after: Int? = nil) {
        self.keys = keys
        self.entries = entries
        self.after = after
    }

    /// News that names nothing: the log may have grown anywhere, read it.
    public static let anywhere = CommitNews(keys: nil)

    /// The entries, when carried and consistent: contiguous seqs from `after + 1`.
    var carried: (after: Int, entries: [LogEntry])? {
        guard let entries, let after, !entries.isEmpty,
              entries.enumerated().allSatisfy({ $0.element.seq == after + 1 + $0.offset }) else { return nil }
        return (after, entries)
    }

    // MARK: PostgreSQL's payload

    /// NOTIFY's payload must stay under 8,000 bytes.
    static let payloadLimit = 7_900

    /// The payload of a commit's NOTIFY: `{"seq", "keys", "after", "entries"}`, the entries as
    /// arrays of their columns; without the entries when they do not fit, without the keys too
    /// when those do not (then every instance reads, and every held pull looks).
    static func payload(lastSeq: Int, keys: [String]?, after: Int?, entries: [LogEntry]?) -> String {
        var news: JSONObject = ["seq": .number(Double(lastSeq))]
        if let keys { news["keys"] = .array(keys.map(JSONValue.string)) }
        if let after, let entries, !entries.isEmpty {
            var carrying = news
            carrying["after"] = .number(Double(after))
            carrying["entries"] = .array(entries.map(Self.json))
            let text = JSONWriter.write(.object(carrying))
            if text.utf8.count < payloadLimit { return text }
        }
        let text = JSONWriter.write(.object(news))
        return text.utf8.count < payloadLimit ? text : JSONWriter.write(.object(["seq": .number(Double(lastSeq))]))
    }

    /// The news a payload says (``payload(lastSeq:keys:after:entries:)``); one it cannot read is
    /// news from anywhere, without entries.
    init(payload: String) {
        guard let news = try? JSONParser.parse(payload) else {
            self = .anywhere
            return
        }
        keys = news["keys"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        if let after = news["after"]?.numberValue, let list = news["entries"]?.arrayValue {
            let entries = list.compactMap(Self.entry)
            if entries.count == list.count {
                self.after = Int(after)
                self.entries = entries
            }
        }
    }

    private static func json(_ entry: LogEntry) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .array([
            .number(Double(entry.seq)), .string(entry.deviceId), .string(entry.opId), .string(entry.dataId), .string(entry.table),
            .string(entry.type), text(entry.data), text(entry.dependencyId), .number(entry.timestamp), text(entry.scopeBefore),
            text(entry.image), .array(entry.keys.sorted().map(JSONValue.string)), entry.deviceTimestamp.map(JSONValue.number) ?? .null,
        ])
    }

    private static func entry(_ value: JSONValue) -> LogEntry? {
        // 12 columns from a server that predates the device's own timestamp in the log.
        guard let columns = value.arrayValue, columns.count == 12 || columns.count == 13,
              let seq = columns[0].numberValue, let deviceId = columns[1].stringValue, let opId = columns[2].stringValue,
              let dataId = columns[3].stringValue, let table = columns[4].stringValue, let type = columns[5].stringValue,
              let timestamp = columns[8].numberValue, let keys = columns[11].arrayValue else { return nil }
        func text(_ value: JSONValue) -> String?? {
            if case .null = value { return .some(nil) }
            return value.stringValue.map { .some($0) }
        }
        guard let data = text(columns[6]), let dependencyId = text(columns[7]), let scopeBefore = text(columns[9]),
              let image = text(columns[10]) else { return nil }
        return LogEntry(seq: Int(seq), deviceId: deviceId, opId: opId, dataId: dataId, table: table, type: type, data: data,
                        dependencyId: dependencyId, timestamp: timestamp, deviceTimestamp: columns.count > 12 ? columns[12].numberValue : nil,
                        scopeBefore: scopeBefore, image: image,
                        keys: Set(keys.compactMap(\.stringValue)))
    }
}
