import JSON
import SystemIO

/// One patch's place in the lifecycle: verified → applied → confirmed, or rolledBack with why.
public struct PatchRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        case verified, applied, confirmed, rolledBack
    }

    public var patchVersion: Int
    public var state: State
    /// Why it was rolled back.
    public var reason: String?
    /// When it last changed state (ISO 8601 UTC).
    public var at: String
    /// Whether an app run has started with it: an applied patch that was launched and not
    /// confirmed is rolled back at the next start.
    public var launched: Bool
    public var modules: [String]

    public var jsonValue: JSONValue {
        var object: JSONObject = ["patchVersion": .number(Double(patchVersion)), "state": .string(state.rawValue)]
        if let reason { object.appendUnique("reason", .string(reason)) }
        object.appendUnique("at", .string(at))
        object.appendUnique("launched", .bool(launched))
        object.appendUnique("modules", .array(modules.map { .string($0) }))
        return .object(object)
    }

    init(patchVersion: Int, state: State, reason: String? = nil, at: String, launched: Bool, modules: [String]) {
        self.patchVersion = patchVersion
        self.state = state
        self.reason = reason
        self.at = at
        self.launched = launched
        self.modules = modules
    }

    init?(json: JSONValue) {
        guard let version = json["patchVersion"]?.intValue, let state = json["state"]?.stringValue.flatMap(State.init(rawValue:)) else { return nil }
        self.init(patchVersion: version, state: state, reason: json["reason"]?.stringValue, at: json["at"]?.stringValue ?? "",
                  launched: json["launched"]?.boolValue ?? false,
                  modules: json["modules"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

/// The patch lifecycle of one app, kept in `<data dir>/patch-ledger/`: `ledger.json` (the
/// history, the version in effect, the highest version seen) and the files of the last
/// ``keep`` patches that were applied, to roll back to. The shipped code is the floor.
public struct PatchLedger: Sendable, Equatable {
    /// How many applied or confirmed patch files are kept.
    public static let keep = 3
    /// How many history records are kept.
    static let historyLimit = 100

    public let directory: String
    /// The patch in effect; nil: the shipped code.
    public internal(set) var current: Int?
    /// The greatest patchVersion ever verified: a new patch must exceed it.
    public internal(set) var highestVersion = 0
    /// Oldest first.
    public internal(set) var records: [PatchRecord] = []

    /// The ledger folder for a data dir.
    public static func directory(dataDirectory: String) -> String { dataDirectory + "/patch-ledger" }

    /// Reads the ledger; an absent one is empty.
    public static func load(dataDirectory: String) throws(PatchError) -> PatchLedger {
        var ledger = PatchLedger(directory: directory(dataDirectory: dataDirectory))
        let path = ledger.directory + "/ledger.json"
        guard let _ = FileSystem.stamp(path) else { return ledger }
        let json: JSONValue
        do {
            json = try JSONParser.parse(try PatchFiles.read(path))
        } catch let error as PatchError {
            throw error
        } catch {
            throw PatchError(.storage, "\(path): not JSON: \(error)")
        }
        ledger.current = json["current"]?.intValue
        ledger.highestVersion = json["highestVersion"]?.intValue ?? 0
        ledger.records = json["records"]?.arrayValue?.compactMap(PatchRecord.init(json:)) ?? []
        return ledger
    }

    init(directory: String) { self.directory = directory }

    public func save() throws(PatchError) {
        try PatchFiles.createDirectory(directory)
        let json: JSONValue = [
            "current": current.map { .number(Double($0)) } ?? .null,
            "highestVersion": .number(Double(highestVersion)),
            "records": .array(records.map(\.jsonValue)),
        ]
        try PatchFiles.write(JSONWriter.write(json, options: .init(pretty: true)) + "\n", to: directory + "/ledger.json")
    }

    public func record(_ version: Int) -> PatchRecord? { records.last { $0.patchVersion == version } }

    /// The kept file of a patch.
    public func patch(_ version: Int) throws(PatchError) -> SignedPatch {
        let path = directory + "/\(version).json"
        return try SignedPatch.parse(try PatchFiles.read(path), file: path)
    }

    /// The version to fall back to from `version`: the latest confirmed one below it whose file
    /// is kept; nil: the shipped code.
    public func fallback(below version: Int) -> Int? {
        let kept = Set(FileSystem.entries(of: directory))
        return records.last { $0.patchVersion < version && $0.state == .confirmed && kept.contains("\($0.patchVersion).json") }?.patchVersion
    }

    // MARK: - Transitions (each saved by the caller)

    /// A verified patch: its file is kept and it becomes the highest version seen.
    mutating func verified(_ patch: SignedPatch) throws(PatchError) {
        try PatchFiles.createDirectory(directory)
        let version = patch.manifest.patchVersion
        // Not synced: the ledger is, and a kept file damaged by a crash fails verification at the
        // next start, which falls back to the shipped code.
        try PatchFiles.write(patch.text, to: directory + "/\(version).json", durable: false)
        highestVersion = max(highestVersion, version)
        set(version, .verified, modules: patch.manifest.modules.keys.sorted())
    }

    /// Removes the file ``verified(_:)`` wrote for a patch that then did not apply (refused by a
    /// module, or not recorded), leaving the folder as it was.
    func discardFile(of version: Int) {
        FileSystem.remove(directory + "/\(version).json")
    }

    /// In effect from now on; `launched` when a running app has it.
    mutating func applied(_ version: Int, launched: Bool) {
        current = version
        set(version, .applied, launched: launched)
        prune()
    }

    mutating func confirmed(_ version: Int) {
        set(version, .confirmed)
    }

    /// Rolled back to `to` (nil: the shipped code).
    mutating func rolledBack(_ version: Int, reason: String, to target: Int?) {
        set(version, .rolledBack, reason: reason)
        if current == version { current = target }
        FileSystem.remove(directory + "/\(version).json")
    }

    mutating func launched(_ version: Int) {
        guard let index = records.lastIndex(where: { $0.patchVersion == version }) else { return }
        records[index].launched = true
    }

    private mutating func set(_ version: Int, _ state: PatchRecord.State, reason: String? = nil, launched: Bool? = nil, modules: [String]? = nil) {
        let now = PatchClock.format(PatchClock.now())
        if let index = records.lastIndex(where: { $0.patchVersion == version }) {
            records[index].state = state
            records[index].reason = reason
            records[index].at = now
            if let launched { records[index].launched = launched }
            if let modules { records[index].modules = modules }
        } else {
            records.append(PatchRecord(patchVersion: version, state: state, reason: reason, at: now,
                                       launched: launched ?? false, modules: modules ?? []))
        }
        if records.count > Self.historyLimit { records.removeFirst(records.count - Self.historyLimit) }
    }

    /// Keeps the files of the last ``keep`` applied or confirmed patches (the current one among them).
    private func prune() {
        let live = records.filter { $0.state == .applied || $0.state == .confirmed }.map(\.patchVersion)
        let keep = Set(live.suffix(Self.keep) + (current.map { [$0] } ?? []))
        for name in FileSystem.entries(of: directory) where name.hasSuffix(".json") && name != "ledger.json" {
            if let version = Int(name.dropLast(5)), !keep.contains(version) { FileSystem.remove(directory + "/" + name) }
        }
    }
}
