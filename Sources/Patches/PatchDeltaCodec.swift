#if canImport(PatchProtocol)
import PatchProtocol
#endif

/// A module's delta applied to the source the device runs (PatchProtocol's `PatchDelta`, zstd with
/// the old source as prefix), with errors as ``PatchError``.
enum PatchDeltaCodec {
    static func apply(from old: [UInt8], delta: [UInt8], at place: String) throws(PatchError) -> [UInt8] {
        #if canImport(PatchProtocol)
        do {
            return try PatchDelta.apply(from: old, delta: delta)
        } catch {
            throw PatchError(.malformed, "\(place): the delta does not apply: \(error)")
        }
        #else
        throw PatchError(.malformed, "\(place): this build cannot apply deltas (no PatchProtocol)")
        #endif
    }
}
