import HTTPCaching
import Synchronization
import SystemIO
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP cache for GETs (`request`'s `cache: true`, `fetch`'s cache modes), one per app, in
/// `<data dir>/.http-cache`: one file per response, written beside its final name and renamed into
/// place so that a crash never leaves half an entry. Least recently used entries go first when the
/// folder outgrows `capacity`.
///
/// The names of the entries on disk are kept in memory, read from the folder once: a key with no
/// entry (almost every fetch of an answer no cache keeps) is told without a file operation.
/// Another process writing the same folder meanwhile is at worst a miss.
final class HTTPCache: Sendable {
    static let capacity = 32 << 20
    /// A response larger than this is not kept: it would push out many small ones.
    static let largestEntry = 4 << 20

    let folder: String
    private let sequence = Atomic<Int>(0)
    /// The entries' file names, nil until first needed.
    private let names = Mutex<Set<String>?>(nil)

    init(folder: String) {
        self.folder = folder
    }

    /// Whether an entry may be stored for `key`: false means certainly none, without touching the disk.
    func holds(_ key: String) -> Bool {
        let name = Self.name(for: key)
        return names.withLock { names in
            if names == nil { names = Set(FileSystem.entries(of: folder).filter { $0.hasSuffix(".entry") }) }
            return names!.contains(name)
        }
    }

    func load(_ key: String) -> CacheEntry? {
        guard holds(key) else { return nil }
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
        // (Not read yet, the names will be, with this one.)
        names.withLock { _ = $0?.insert(Self.name(for: entry.key)) }
        evict()
    }

    func remove(_ key: String) {
        guard holds(key) else { return }
        let name = Self.name(for: key)
        names.withLock { _ = $0?.remove(name) }
        unlink(folder + "/" + name)
    }

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
            names.withLock { _ = $0?.remove(String(entry.path.dropFirst(folder.count + 1))) }
            total -= entry.size
        }
    }

    private func path(for key: String) -> String { folder + "/" + Self.name(for: key) }

    private static let nameCharacters = Array("0123456789abcdef.entry".utf8)

    /// FNV-1a of the key: a short, stable file name. The key itself is stored in the entry and
    /// compared on load, so a collision reads as a miss, never as another URL's response.
    static func name(for key: String) -> String {
        var key = key
        // Over the string's bytes in place: iterating its UTF8View checks each index.
        let hash = key.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        // 16 hex digits and ".entry", written in place.
        return String(unsafeUninitializedCapacity: 22) { name in
            for index in 0..<16 { name[index] = nameCharacters[Int(hash >> UInt64(60 - 4 * index) & 0xF)] }
            for index in 16..<22 { name[index] = nameCharacters[index] }
            return 22
        }
    }
}
