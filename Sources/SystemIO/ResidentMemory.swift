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
