import Engine
import PatchProtocol

/// Patches changed while the app is not running (`hybrid patch apply | rollback`): only the
/// ledger changes, and the next run starts on the result.
public enum PatchInstaller {
    /// Verifies and compiles `patch`, then makes it the patch in effect from the next start (state
    /// `applied`, not yet launched). A refusal changes nothing.
    @discardableResult
    public static func install(_ patch: SignedPatch, trust: PatchTrust, dataDirectory: String,
                               now: Double = PatchClock.now()) throws(PatchError) -> PatchRecord {
        var ledger = try PatchLedger.load(dataDirectory: dataDirectory)
        try check(patch, trust: trust, ledger: ledger, now: now)
        try ledger.verified(patch)
        ledger.applied(patch.manifest.patchVersion, launched: false)
        try ledger.save()
        return ledger.record(patch.manifest.patchVersion)!
    }

    /// What `hybrid patch verify` checks: signature, hashes, versions, expiry, modules, syntax.
    public static func check(_ patch: SignedPatch, trust: PatchTrust, dataDirectory: String, now: Double = PatchClock.now()) throws(PatchError) {
        try check(patch, trust: trust, ledger: try PatchLedger.load(dataDirectory: dataDirectory), now: now)
    }

    static func check(_ patch: SignedPatch, trust: PatchTrust, ledger: PatchLedger, now: Double) throws(PatchError) {
        try ledger.checkNotRevoked(patch.manifest.patchVersion)
        try PatchVerifier.verify(patch, trust: trust, highestVersion: ledger.highestVersion, now: now)
        try SyntaxChecker().check(patch)
    }

    /// Rolls the patch in effect back to the last confirmed one kept, or the shipped code.
    /// Returns (rolled back, now in effect).
    @discardableResult
    public static func rollBack(dataDirectory: String, reason: String) throws(PatchError) -> (from: Int, to: Int?) {
        var ledger = try PatchLedger.load(dataDirectory: dataDirectory)
        guard let version = ledger.current else {
            throw PatchError(.nothing, "no patch to roll back: the app runs its shipped code")
        }
        let target = ledger.fallback(below: version)
        ledger.rolledBack(version, reason: reason, to: target)
        try ledger.save()
        return (version, target)
    }
}
