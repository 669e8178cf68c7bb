import Glibc

/// The process's resident memory (RSS), as the kernel counts it for the OOM killer: the second
/// field of `/proc/self/statm`, in pages. One open, read and close, about 6 µs.
public enum ResidentMemory {
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Bytes resident now, or nil when `/proc` cannot be read.
    public static func bytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared ...": skip the first number, read the second.
        var index = 0
        while index < count, buffer[index] != UInt8(ascii: " ") { index += 1 }
        index += 1
        var pages = 0
        var digits = 0
        while index < count, buffer[index] >= UInt8(ascii: "0"), buffer[index] <= UInt8(ascii: "9") {
            pages = pages * 10 + Int(buffer[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? pages * pageSize : nil
    }

    /// Hands memory that malloc holds free back to the kernel (glibc's `malloc_trim(0)`, over every
    /// arena): after a burst of thousands of connections, their freed buffers otherwise stay
    /// resident for the life of the process. Takes a few milliseconds on a heap of tens of MiB.
    public static func releaseFreed() {
        _ = mallocTrim(0)
    }
}

/// glibc's `int malloc_trim(size_t pad)`, declared in <malloc.h>, which the Glibc module leaves out.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32

/// How glibc's allocator treats the large blocks the JavaScript side churns through: each
/// `TextEncoder.encode` of a megabyte, each chunk of a fetched body, is a fresh `malloc` that the
/// collector frees a little later.
public enum MallocPolicy {
    /// Serves blocks up to 4 MiB from the heap, and keeps up to 16 MiB free at its top, so that a
    /// freed block's pages are used again rather than mapped, faulted in, zeroed and unmapped per
    /// call. glibc's own defaults (128 KiB, with a threshold that rises only when a mapped block
    /// is freed, and a trim at twice it) hand a collector's batch of megabyte frees back to the
    /// kernel at once: a third of `encode` of 1 MB of text went in page faults (BENCHMARKS.md,
    /// "The web platform, part 1"). Larger blocks are still mapped and returned on free, and
    /// ``ResidentMemory/releaseFreed()`` still gives back what the heap holds free.
    public static func reuseFreedBlocks() {
        _ = mallocOption(mallocMmapThreshold, 4 << 20)
        _ = mallocOption(mallocTrimThreshold, 16 << 20)
    }

    // <malloc.h>'s M_TRIM_THRESHOLD and M_MMAP_THRESHOLD.
    private static let mallocTrimThreshold: Int32 = -1
    private static let mallocMmapThreshold: Int32 = -3
}

/// glibc's `int mallopt(int param, int value)`, also left out of the Glibc module.
@_silgen_name("mallopt")
private func mallocOption(_ parameter: Int32, _ value: Int32) -> Int32
