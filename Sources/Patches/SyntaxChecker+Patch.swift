import Engine
import PatchProtocol

extension SyntaxChecker {
    /// Compiles every module of `patch` (off the app's JS thread); one that does not compile is
    /// ``PatchError/Code/syntax``, naming it.
    func check(_ patch: SignedPatch) throws(PatchError) {
        do {
            try check(patch.manifest.modules.keys.sorted().map { ($0, patch.sources[$0]!) })
        } catch {
            throw PatchError(.syntax, "modules.\(error.module): does not compile: \(error.message)")
        }
    }
}
