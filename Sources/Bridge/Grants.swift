/// Which targets an app may call, deny by default. `network:HOST` entries limit the
/// network target to the hosts named; `all` grants everything.
public struct Grants: Sendable, Equatable {
    public private(set) var targets: Set<String>
    /// Hosts per target, for entries of the form `target:qualifier` (`network:127.0.0.1`).
    public private(set) var qualifiers: [String: Set<String>]
    public private(set) var grantsAll: Bool

    public static let none = Grants(targets: [], qualifiers: [:], grantsAll: false)
    public static let all = Grants(targets: [], qualifiers: [:], grantsAll: true)

    init(targets: Set<String>, qualifiers: [String: Set<String>], grantsAll: Bool) {
        self.targets = targets
        self.qualifiers = qualifiers
        self.grantsAll = grantsAll
    }

    /// Parses grant entries, refusing any that names no registered target (or `bridge`), and
    /// writing each qualifier in the canonical form its target's service gives it
    /// (``BridgeService/grantQualifier(_:)``: `network:API.example.test.` grants
    /// `api.example.test`), or refusing it with the service's reason.
    ///
    /// - Parameters:
    ///   - entries: as written in `app.json` `grants` or `--grant a,b`.
    ///   - registry: the run's services.
    ///   - source: names the entries' origin in errors, e.g. `app.json: grants` or `--grant`.
    public static func parse(_ entries: [String], registry: ServiceRegistry, source: String) throws(GrantError) -> Grants {
        try parse(entries, knownTargets: registry.targets.union(["bridge"]), source: source) { (target: String, written: String) throws(GrantError) -> String in
            try registry[target]?.grantQualifier(written) ?? written.lowercased()
        }
    }

    /// Parses grant entries, refusing any that names no known target; qualifiers are lower-cased.
    ///
    /// - Parameters:
    ///   - entries: as written in `app.json` `grants` or `--grant a,b`.
    ///   - knownTargets: the registered targets.
    ///   - source: names the entries' origin in errors, e.g. `app.json: grants` or `--grant`.
    public static func parse(_ entries: [String], knownTargets: Set<String>, source: String) throws(GrantError) -> Grants {
        try parse(entries, knownTargets: knownTargets, source: source) { (_: String, written: String) throws(GrantError) -> String in written.lowercased() }
    }

    private static func parse(_ entries: [String], knownTargets: Set<String>, source: String,
                              qualifier: (String, String) throws(GrantError) -> String) throws(GrantError) -> Grants {
        var grants = Grants.none
        for (index, entry) in entries.enumerated() {
            let trimmed = entry.trimmingSpaces()
            if trimmed == "all" { grants.grantsAll = true; continue }
            let parts = trimmed.split(separator: ":", maxSplits: 1).map(String.init)
            guard let target = parts.first, !target.isEmpty else {
                throw GrantError(message: "\(source)[\(index)]: empty grant; expected a target name such as \"storage\" or \"network:HOST\"")
            }
            guard knownTargets.contains(target) else {
                let known = knownTargets.sorted().joined(separator: ", ")
                throw GrantError(message: "\(source)[\(index)]: unknown target \"\(target)\"; expected one of \(known), or all")
            }
            grants.targets.insert(target)
            if parts.count == 2 {
                guard !parts[1].isEmpty else {
                    throw GrantError(message: "\(source)[\(index)]: \"\(trimmed)\" names no host after ':'")
                }
                do {
                    grants.qualifiers[target, default: []].insert(try qualifier(target, parts[1]))
                } catch {
                    throw GrantError(message: "\(source)[\(index)]: \"\(trimmed)\": \(error.message)")
                }
            }
        }
        return grants
    }

    /// Whether the app may call `target` at all. The `bridge` target is always allowed.
    public func allows(target: String) -> Bool {
        grantsAll || target == "bridge" || targets.contains(target)
    }

    /// Whether `qualifier` (a host, for network) is granted for `target`. A target granted without
    /// qualifiers allows every qualifier. `qualifier` is compared as it is, so it must be in the
    /// form the target's grants were parsed into (a network host as `URLTarget` writes it).
    public func allows(target: String, qualifier: String) -> Bool {
        if grantsAll { return true }
        guard targets.contains(target) else { return false }
        guard let allowed = qualifiers[target] else { return true }
        return allowed.contains(qualifier)
    }
}

/// A grant list that names something unknown or malformed.
public struct GrantError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
