import Glibc

/// Watches a folder and every folder below it with inotify, on a thread of its own, and reports
/// the files that changed in batches: a batch goes out once `quietMs` have passed without another
/// event, so that an editor's burst (a temporary file written, then renamed over the old one) is
/// one batch. Folders named `node_modules` or starting with a dot are not watched; folders made
/// later are, and the files already in them are reported.
///
/// ```swift
/// let watcher = try FileTreeWatcher(root: "/home/me/app") { batch in print(batch.paths) }
/// watcher.start()
/// // ...
/// watcher.stop()
/// ```
///
/// `onChange` runs on the watcher's thread; it should hand the batch on rather than work there.
public final class FileTreeWatcher: Sendable {
    /// Files that changed (written and closed, moved in or deleted), absolute paths,
    /// sorted. `root` itself among them means events were lost (inotify's queue overflowed):
    /// anything may have changed.
    public struct Batch: Sendable {
        public let paths: [String]
        /// When the batch's first event was read (``MonotonicClock``).
        public let firstEventAt: UInt64
    }

    public let root: String
    public let quietMs: Int
    private let inotify: Int32
    /// A pipe whose write end `stop` writes to, waking the thread's poll.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let onChange: @Sendable (Batch) -> Void
    /// Watched folders by watch descriptor: written by the watcher's thread (and `init`), read by
    /// ``watchedFolders`` from any thread.
    private let folders = Locked<[Int32: String]>([:])

    /// A file counts as changed once it is written and closed, moved in (an editor's rename of
    /// its temporary file) or deleted; creating one does not (it is still empty: its close
    /// follows). Creating a folder is watched for, to watch it too.
    private static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_ONLYDIR)

    /// Watches `root` (a folder) and the folders below it. Throws when inotify cannot start or
    /// `root` cannot be watched; a folder below it that cannot be is skipped.
    public init(root: String, quietMs: Int = 20, onChange: @escaping @Sendable (Batch) -> Void) throws(FileSystemError) {
        self.root = root
        self.quietMs = max(1, quietMs)
        self.onChange = onChange
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotify >= 0 else { throw FileSystemError(path: root, code: errno) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let code = errno
            close(inotify)
            throw FileSystemError(path: root, code: code)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let wd = inotify_add_watch(inotify, root, Self.mask)
        guard wd >= 0 else {
            let code = errno
            for fd in [inotify, wakeRead, wakeWrite] { close(fd) }
            throw FileSystemError(path: root, code: code)
        }
        folders.withLock { $0[wd] = root }
        for name in FileSystem.entries(of: root) { _ = watchTree(root + "/" + name) }
    }

    /// Whether a folder of this name is left unwatched: dependencies and hidden folders (`.git`).
    public static func skips(folder name: String) -> Bool { name == "node_modules" || name.hasPrefix(".") }

    /// How many folders are watched (tests).
    public var watchedFolders: Int { folders.read { $0.count } }

    /// Starts the thread. Call once.
    public func start() {
        DetachedThread.start { [self] in loop() }
    }

    /// Ends the thread: no batch is reported once it has finished the one in hand. Idempotent.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Watches `path` and the folders below it when it is a folder not skipped; returns the files
    /// found in it (a new folder's files may have been written before its watch was placed).
    private func watchTree(_ path: String) -> [String] {
        guard let names = FileSystem.entries(ifFolder: path) else { return [] }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !Self.skips(folder: name), FileSystem.linkTarget(path) == nil else { return [] }
        let wd = inotify_add_watch(inotify, path, Self.mask)
        guard wd >= 0 else { return [] }
        folders.withLock { $0[wd] = path }
        var files: [String] = []
        for name in names {
            let child = path + "/" + name
            if FileSystem.kind(of: child) == .directory { files += watchTree(child) } else { files.append(child) }
        }
        return files
    }

    deinit {
        for fd in [inotify, wakeRead, wakeWrite] { close(fd) }
    }

    // The thread holds the watcher until the loop ends, so the descriptors outlive it.
    private func loop() {
        var pending = Set<String>()
        var firstAt: UInt64 = 0
        var lastAt: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var timeout: Int32 = -1
            if !pending.isEmpty {
                let quiet = UInt64(quietMs) * 1_000_000
                let since = MonotonicClock.now() - lastAt
                timeout = since >= quiet ? 0 : Int32((quiet - since + 999_999) / 1_000_000)
            }
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                let found = drain(&buffer)
                if !found.isEmpty {
                    let now = MonotonicClock.now()
                    if pending.isEmpty { firstAt = now }
                    lastAt = now
                    pending.formUnion(found)
                }
            }
            if !pending.isEmpty && MonotonicClock.now() - lastAt >= UInt64(quietMs) * 1_000_000 {
                let batch = Batch(paths: pending.sorted(), firstEventAt: firstAt)
                pending.removeAll()
                onChange(batch)
            }
        }
    }

    /// Reads every queued event; returns the paths they name.
    private func drain(_ buffer: inout [UInt8]) -> [String] {
        var paths: [String] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count <= 0 { return paths }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len].
                while offset + 16 <= count {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)]
                    offset += 16 + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        paths.append(root)
                        continue
                    }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        folders.withLock { $0[wd] = nil }
                        continue
                    }
                    guard length > 0, let folder = folders.withLock({ $0[wd] }) else { continue }
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    let path = folder + "/" + name
                    if mask & UInt32(IN_ISDIR) != 0 {
                        if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 { paths += watchTree(path) }
                        continue
                    }
                    if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)) != 0 { paths.append(path) }
                }
            }
        }
    }
}
