import CZstd

/// A module's new source as a delta against the source a device already runs: zstd (level 19,
/// long mode off) with the old bytes as a raw prefix (`"format": "zstd-prefix"`), so that a
/// one-line change in a large module costs about the size of the line.
///
/// ```swift
/// let delta = try PatchDelta.make(from: old, to: new)
/// let rebuilt = try PatchDelta.apply(from: old, delta: delta)   // == new
/// ```
public enum PatchDelta {
    /// The wire name of the format.
    public static let format = "zstd-prefix"
    /// The largest source a delta rebuilds (and the largest window either side allows: 2^27 bytes).
    public static let maximumSize = 1 << 26

    public static func make(from old: [UInt8], to new: [UInt8]) throws(PatchError) -> [UInt8] {
        guard old.count <= maximumSize, new.count <= maximumSize else {
            throw PatchError(.malformed, "delta: sources above \(maximumSize) bytes are sent whole")
        }
        guard let context = ZSTD_createCCtx() else { throw PatchError(.storage, "delta: zstd has no memory for a context") }
        defer { ZSTD_freeCCtx(context) }
        var windowLog = 10
        while (1 << windowLog) < old.count + new.count, windowLog < 27 { windowLog += 1 }
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 19), "level")
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, Int32(windowLog)), "window")
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_enableLongDistanceMatching, 0), "long mode")
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(new.count))
        let written = old.withUnsafeBytes { prefix in
            new.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target -> Int in
                    let referenced = ZSTD_CCtx_refPrefix(context, prefix.baseAddress, prefix.count)
                    guard ZSTD_isError(referenced) == 0 else { return referenced }
                    return ZSTD_compress2(context, target.baseAddress, target.count, source.baseAddress, source.count)
                }
            }
        }
        try check(written, "compress")
        return Array(output[0..<written])
    }

    /// Rebuilds the new source; throws when the delta is not zstd, was made against other bytes
    /// than `old` (zstd's checksum is off, so the caller checks the result's SHA-256 as well), or
    /// would exceed ``maximumSize``.
    public static func apply(from old: [UInt8], delta: [UInt8]) throws(PatchError) -> [UInt8] {
        let size = delta.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        // ZSTD_CONTENTSIZE_UNKNOWN and _ERROR are UInt64.max and UInt64.max - 1: above the limit.
        guard size <= UInt64(maximumSize) else {
            throw PatchError(.malformed, "delta.data: expected one zstd frame with its content size, at most \(maximumSize) bytes")
        }
        guard let context = ZSTD_createDCtx() else { throw PatchError(.storage, "delta: zstd has no memory for a context") }
        defer { ZSTD_freeDCtx(context) }
        try check(ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, 27), "window")
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = old.withUnsafeBytes { prefix in
            delta.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target -> Int in
                    let referenced = ZSTD_DCtx_refPrefix(context, prefix.baseAddress, prefix.count)
                    guard ZSTD_isError(referenced) == 0 else { return referenced }
                    return ZSTD_decompressDCtx(context, target.baseAddress, target.count, source.baseAddress, source.count)
                }
            }
        }
        guard ZSTD_isError(written) == 0, written == Int(size) else {
            let reason = ZSTD_isError(written) != 0 ? String(cString: ZSTD_getErrorName(written)) : "short output"
            throw PatchError(.malformed, "delta.data: does not rebuild against the source named by delta.from (\(reason))")
        }
        return output
    }

    private static func check(_ code: Int, _ step: String) throws(PatchError) {
        guard ZSTD_isError(code) != 0 else { return }
        throw PatchError(.storage, "delta: zstd \(step): \(String(cString: ZSTD_getErrorName(code)))")
    }
}
