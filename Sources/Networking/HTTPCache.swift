import HTTPCaching
import Synchronization
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP cache for GETs asked with `cache: true`, one per app, in `<data dir>/.http-cache`:
/// one file per response, written beside its final name and renamed into place so that a crash
/// never leaves half an entry. Least recently used entries go first when the folder outgrows
/// `capacity`.
final class HTTPCache: Sendable {
    static let capacity = 32 << 20
    /// A response larger than this is not kept: it would push out many small ones.
    static let largestEntry = 4 << 20

    let folder: String
    private let sequence = Atomic<Int>(0)

    init(folder: String) {
        self.folder = folder
    }

    func load(_ key: String) -> CacheEntry? {
        let path = self.path(for: key)
        guard let bytes = try? FileSystem.bytes(atPath: path), let entry = CacheEntry(decoding: bytes), entry.key == key else { return nil }
        _ = utimensat(AT_FDCWD, path, nil, 0)
        return entry
    }

    func save(_ entry: CacheEntry) {
        guard entry.body.count <= Self.largestEntry else { return }
        mkdir(folder, 0o700)
        let path = self.path(for: entry.key)
        let temporary = "\(path).\(getpid())-\(sequence.add(1, ordering: .relaxed).newValue).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = entry.encoded()
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        evict()
    }

    func remove(_ key: String) { unlink(path(for: key)) }

    /// Drops the least recently used entries until the folder fits `capacity`.
    private func evict() {
        var entries: [(path: String, size: Int, used: Double)] = []
        var total = 0
        for name in FileSystem.entries(of: folder) where name.hasSuffix(".entry") {
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let size = Int(info.st_size)
            entries.append((path, size, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            total += size
        }
        guard total > Self.capacity else { return }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > Self.capacity {
            unlink(entry.path)
            total -= entry.size
        }
    }

    /// FNV-1a of the key: a short, stable file name. The key itself is stored in the entry and
    /// compared on load, so a collision reads as a miss, never as another URL's response.
    private func path(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return folder + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".entry"
    }
}
