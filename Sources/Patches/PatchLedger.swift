import Crypto
import JSON
import PatchProtocol
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
///
/// `ledger.json` carries a MAC, `"mac": "hmac-sha256:…"`, over its canonical form, made with a
/// key of the host's kept outside every data folder (``PatchLedgerKey``). A ledger whose MAC does
/// not verify (or that has none, or is not JSON) was not written by this host, and nothing in it
/// is obeyed (``unverified``): no patch it names runs or can be rolled back to, and its highest
/// version is never lowered, so that it can neither roll the app back nor let an old patch be
/// replayed. Scripts cannot write here in the first place (`network.download` refuses the host's
/// entries); the MAC is the second line, for whatever else might.
public struct PatchLedger: Sendable, Equatable {
    /// How many applied or confirmed patch files are kept.
    public static let keep = 3
    /// How many history records are kept.
    static let historyLimit = 100
    /// The ledger folder's name in the data folder, one of the host's own entries.
    public static let folderName = "patch-ledger"

    public let directory: String
    /// The patch in effect; nil: the shipped code.
    public internal(set) var current: Int?
    /// The greatest patchVersion ever verified: a new patch must exceed it.
    public internal(set) var highestVersion = 0
    /// Oldest first.
    public internal(set) var records: [PatchRecord] = []
    /// Versions the publisher revoked (a verified revocation), with its reason: never applied
    /// again, never rolled back to.
    public internal(set) var revoked: [Int: String] = [:]
    /// Why `ledger.json` was not taken as it was on disk (its MAC does not verify, it has none,
    /// it is not JSON, the host's key is missing); nil when it verified or there was none. Such a
    /// ledger is loaded distrusted: the shipped code in effect, every patch it names recorded as
    /// rolled back with this reason, the highest version the greatest it names or whose file is
    /// kept. The next ``save()`` makes it the host's own.
    public internal(set) var unverified: String?
    /// The host's MAC key.
    let key: PatchLedgerKey

    /// The ledger folder for a data dir.
    public static func directory(dataDirectory: String) -> String { dataDirectory + "/" + folderName }

    /// Reads the ledger; an absent one is empty, one the host did not write is distrusted
    /// (``unverified``). Throws only when the file cannot be read.
    public static func load(dataDirectory: String) throws(PatchError) -> PatchLedger {
        try load(dataDirectory: dataDirectory, key: .host)
    }

    static func load(dataDirectory: String, key: PatchLedgerKey) throws(PatchError) -> PatchLedger {
        let ledger = PatchLedger(directory: directory(dataDirectory: dataDirectory), key: key)
        let path = ledger.directory + "/ledger.json"
        guard let _ = FileSystem.stamp(path) else {
            let present = FileSystem.linkTarget(path) != nil || FileSystem.kind(of: path) != .missing
            return present ? ledger.distrusted("it is not a plain file", claims: [:]) : ledger
        }
        let text = try PatchFiles.read(path)
        guard case .object(var object)? = try? JSONParser.parse(text) else {
            return ledger.distrusted("it is not a JSON object", claims: [:])
        }
        let mac = object["mac"]?.stringValue
        object = JSONObject(object.filter { $0.key != "mac" })
        guard let mac else { return ledger.distrusted("it has no MAC", claims: object) }
        let secret: SymmetricKey
        do throws(PatchError) {
            guard !key.isInside(dataDirectory) else {
                return ledger.distrusted("the host's key \(key.path) is inside the data folder, where it protects nothing", claims: object)
            }
            guard let existing = try key.existing() else {
                return ledger.distrusted("the host's key \(key.path) does not exist (a data folder from another machine or user?)", claims: object)
            }
            secret = existing
        } catch {
            return ledger.distrusted(error.message, claims: object)
        }
        guard key.verifies(mac, of: object, with: secret) else {
            return ledger.distrusted("its MAC does not verify with the host's key", claims: object)
        }
        var trusted = ledger
        trusted.current = object["current"]?.intValue
        trusted.highestVersion = object["highestVersion"]?.intValue ?? 0
        trusted.records = object["records"]?.arrayValue?.compactMap(PatchRecord.init(json:)) ?? []
        for entry in object["revoked"]?.arrayValue ?? [] {
            if let version = entry["patchVersion"]?.intValue { trusted.revoked[version] = entry["reason"]?.stringValue ?? "" }
        }
        return trusted
    }

    init(directory: String, key: PatchLedgerKey = .host) {
        self.directory = directory
        self.key = key
    }

    /// This (empty) ledger, after a `ledger.json` the host did not write: `claims` is what that
    /// file said. Nothing it says is obeyed, and nothing it says lowers the highest version.
    private func distrusted(_ why: String, claims: JSONObject) -> PatchLedger {
        var ledger = self
        let reason = "patch-ledger/ledger.json was not written by this host (\(why)), so it is not obeyed"
        ledger.unverified = reason
        let claimed = claims["records"]?.arrayValue?.compactMap(PatchRecord.init(json:)) ?? []
        ledger.records = claimed.suffix(Self.historyLimit).map { record in
            var record = record
            record.state = .rolledBack
            record.reason = reason
            record.launched = false
            return record
        }
        let kept = FileSystem.entries(of: directory).compactMap { name in name.hasSuffix(".json") ? Int(name.dropLast(5)) : nil }
        let named = [claims["highestVersion"]?.intValue, claims["current"]?.intValue].compactMap { $0 } + claimed.map(\.patchVersion)
        ledger.highestVersion = max(0, (named + kept).max() ?? 0)
        // Revocations it names still hold: they can only refuse more.
        for entry in claims["revoked"]?.arrayValue ?? [] {
            if let version = entry["patchVersion"]?.intValue { ledger.revoked[version] = entry["reason"]?.stringValue ?? "" }
        }
        return ledger
    }

    /// Writes `ledger.json` with its MAC, making the host's key if there is none yet.
    public func save() throws(PatchError) {
        try PatchFiles.createDirectory(directory)
        let dataDirectory = FileSystem.directory(of: directory)
        guard !key.isInside(dataDirectory) else {
            throw PatchError(.storage, "the host's patch ledger key \(key.path) is inside the data folder \(dataDirectory), where it protects nothing; set XDG_STATE_HOME (or HYBRID_LEDGER_KEY_FILE) to a place outside it")
        }
        let secret = try key.existingOrNew()
        var object: JSONObject = [
            "current": current.map { .number(Double($0)) } ?? .null,
            "highestVersion": .number(Double(highestVersion)),
            "records": .array(records.map(\.jsonValue)),
        ]
        if !revoked.isEmpty {
            object.appendUnique("revoked", .array(revoked.keys.sorted().map { version in
                ["patchVersion": .number(Double(version)), "reason": .string(revoked[version]!)]
            }))
        }
        object.appendUnique("mac", .string(key.mac(of: object, with: secret)))
        try PatchFiles.write(JSONWriter.write(.object(object), options: .init(pretty: true)) + "\n", to: directory + "/ledger.json")
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
        return records.last {
            $0.patchVersion < version && $0.state == .confirmed && revoked[$0.patchVersion] == nil && kept.contains("\($0.patchVersion).json")
        }?.patchVersion
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

    /// Refuses a version the publisher revoked.
    func checkNotRevoked(_ version: Int) throws(PatchError) {
        if let reason = revoked[version] {
            throw PatchError(.revoked, "patch \(version): revoked by the publisher (\(reason)); it is never applied again")
        }
    }

    /// The publisher revoked `version`: it is never applied again, and its kept file goes. A
    /// record of it that is not rolled back already is marked rolled back with the reason (the
    /// caller swaps the code first when it runs).
    mutating func revoke(_ version: Int, reason: String, to target: Int?) {
        revoked[version] = reason
        if let record = record(version), record.state != .rolledBack {
            rolledBack(version, reason: "revoked by the publisher: \(reason)", to: target)
        } else {
            FileSystem.remove(directory + "/\(version).json")
        }
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
