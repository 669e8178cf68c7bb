import JSON
import PatchProtocol
import SystemIO

/// The loader's reports to the patch server, kept in `<data dir>/.patch-reports.json` until the
/// server has them: each is written (and synced) at the moment it happens, so that a report
/// survives a crash or a restart, and leaves the file once the server answered it. One report per
/// patch per event: a second `applied` of version 3 is not queued (the server counts one vote
/// per device per patch per event anyway).
///
/// ```json
/// {"pending": [{"patchVersion": 3, "event": "rolledBack", "reason": "…", "at": "2026-11-28T21:00:00Z"}],
///  "queued": ["3:applied", "3:rolledBack"]}
/// ```
// @unchecked: `state` is a Locked; the file is written only under it.
public final class PatchReportQueue: @unchecked Sendable {
    public typealias Event = PatchReport.Event

    public struct Entry: Sendable, Equatable {
        public var patchVersion: Int
        public var event: Event
        public var reason: String?
        public var at: String

        var key: String { "\(patchVersion):\(event.rawValue)" }

        /// The body of `POST /v1/apps/{app}/reports`.
        public var body: JSONValue {
            PatchReport(patchVersion: patchVersion, event: event, reason: reason).jsonValue
        }

        var jsonValue: JSONValue {
            var object = body.objectValue ?? [:]
            object.appendUnique("at", .string(at))
            return .object(object)
        }

        init?(json: JSONValue) {
            guard let version = json["patchVersion"]?.intValue, let event = json["event"]?.stringValue.flatMap(Event.init(rawValue:)) else { return nil }
            self.init(patchVersion: version, event: event, reason: json["reason"]?.stringValue, at: json["at"]?.stringValue ?? "")
        }

        init(patchVersion: Int, event: Event, reason: String?, at: String) {
            self.patchVersion = patchVersion
            self.event = event
            self.reason = reason
            self.at = at
        }
    }

    /// The file's name in the data folder: a dotfile, so one of the host's own entries.
    public static let fileName = ".patch-reports.json"
    /// How many keys of queued reports are remembered (oldest forgotten first).
    static let queuedLimit = 1000

    public let path: String
    private struct State {
        var pending: [Entry] = []
        var queued: [String] = []
    }

    private let state = Locked(State())

    /// Reads the queue of `dataDirectory`; a file that is not the queue's is started afresh
    /// (`problem` says why).
    public init(dataDirectory: String) {
        path = dataDirectory + "/" + Self.fileName
        guard let text = try? FileSystem.textIfPresent(atPath: path), case .object(let object)? = try? JSONParser.parse(text) else { return }
        let pending = object["pending"]?.arrayValue?.compactMap(Entry.init(json:)) ?? []
        let queued = object["queued"]?.arrayValue?.compactMap(\.stringValue) ?? []
        state.withLock { $0 = State(pending: pending, queued: queued) }
    }

    /// The reports not yet taken by the server, oldest first.
    public var pending: [Entry] { state.value.pending }

    /// Queues a report, durably, unless one of this event for this version was queued before.
    /// Returns whether it was queued.
    @discardableResult
    public func record(_ event: Event, version: Int, reason: String? = nil, now: Double = PatchClock.now()) throws(PatchError) -> Bool {
        let entry = Entry(patchVersion: version, event: event, reason: reason, at: PatchClock.format(now))
        return try state.withLock { state throws(PatchError) -> Bool in
            guard !state.queued.contains(entry.key) else { return false }
            var next = state
            next.pending.append(entry)
            next.queued.append(entry.key)
            if next.queued.count > Self.queuedLimit { next.queued.removeFirst(next.queued.count - Self.queuedLimit) }
            try save(next)
            state = next
            return true
        }
    }

    /// The server has `entry` (or refused it for good): it leaves the queue.
    public func remove(_ entry: Entry) throws(PatchError) {
        try state.withLock { state throws(PatchError) in
            var next = state
            next.pending.removeAll { $0.key == entry.key }
            guard next.pending.count != state.pending.count else { return }
            try save(next)
            state = next
        }
    }

    private func save(_ state: State) throws(PatchError) {
        let object: JSONObject = ["pending": .array(state.pending.map(\.jsonValue)), "queued": .array(state.queued.map { .string($0) })]
        try PatchFiles.createDirectory(FileSystem.directory(of: path))
        try PatchFiles.write(JSONWriter.write(.object(object)) + "\n", to: path, durable: true)
    }
}
