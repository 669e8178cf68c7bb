import JSON

/// How a published patch is offered, as its publisher set it.
public struct PatchRelease: Sendable, Equatable {
    public enum State: String, Sendable {
        case active, halted, revoked
    }

    public var app: String
    public var patchVersion: Int
    public var baseVersion: String
    public var channel: String
    /// Percent of the channel's devices offered the patch (0.01...100).
    public var rollout: Double
    /// The rolled-back share (percent) above which the server halts the patch.
    public var haltAbove: Double
    /// Devices that must have applied the patch before the server may halt it.
    public var minDevices: Int
    public var state: State
    public var haltReason: String?
    /// "server" or the publisher's token subject.
    public var haltedBy: String?
}

/// A patch's funnel: devices per event, and rollback reasons with their counts.
public struct PatchFunnel: Sendable, Equatable {
    public var offered = 0, downloaded = 0, applied = 0, confirmed = 0, rolledBack = 0
    public var reasons: [String: Int] = [:]

    public var json: JSONValue {
        var reasons = JSONObject()
        for (reason, count) in self.reasons.sorted(by: { $0.key < $1.key }) { reasons.appendUnique(reason, .number(Double(count))) }
        return ["offered": .number(Double(offered)), "downloaded": .number(Double(downloaded)), "applied": .number(Double(applied)),
                "confirmed": .number(Double(confirmed)), "rolledBack": .number(Double(rolledBack)), "reasons": .object(reasons)]
    }
}

/// One line of an app's audit log.
public struct PatchAuditEntry: Sendable, Equatable {
    public var at: String
    public var subject: String
    public var action: String
    public var patchVersion: Int?
    public var details: String

    public var json: JSONValue {
        var object: JSONObject = ["at": .string(at), "subject": .string(subject), "action": .string(action)]
        if let patchVersion { object.appendUnique("patchVersion", .number(Double(patchVersion))) }
        object.appendUnique("details", .string(details))
        return .object(object)
    }
}

/// The automatic halt's rule: the Wilson score interval's lower bound (z = 1.96) of k rollbacks
/// among n devices that applied the patch.
public enum RollbackBound {
    public static func lower(rolledBack k: Int, applied n: Int, z: Double = 1.96) -> Double {
        guard n > 0 else { return 0 }
        let n = Double(n), p = Double(min(k, Int(n))) / n, z2 = z * z
        let centre = p + z2 / (2 * n)
        let margin = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return (centre - margin) / (1 + z2 / n)
    }
}

/// A patch's confirmations and rollbacks reported in one minute (the rollout page's chart).
public struct PatchTimelineMinute: Sendable, Equatable {
    /// Minutes since 1970.
    public var minute: Int
    public var confirmed = 0
    public var rolledBack = 0

    /// Rows of (minute, event, count), ordered by minute, as one entry per minute.
    static func merge(_ rows: [(Int, String, Int)]) -> [PatchTimelineMinute] {
        var minutes: [PatchTimelineMinute] = []
        for (minute, event, count) in rows {
            if minutes.last?.minute != minute { minutes.append(PatchTimelineMinute(minute: minute)) }
            if event == "confirmed" { minutes[minutes.count - 1].confirmed += count } else { minutes[minutes.count - 1].rolledBack += count }
        }
        return minutes
    }
}
