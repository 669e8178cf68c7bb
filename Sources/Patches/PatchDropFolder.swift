import Glibc
import PatchProtocol
import SystemIO

/// Watches `<data dir>/patches/` by polling: a `*.json` file whose size and time have not changed
/// since the last look is applied, then removed (the ledger keeps its own copy). A refused file
/// is renamed `NAME.refused`, with the reason beside it in `NAME.refused.txt`. Writers should
/// write elsewhere (or to a dotfile) and rename into the folder. A symbolic link is refused
/// unread: it could point anywhere on the machine, and the folder takes only files of its own.
// @unchecked: `stopped` is behind `lock`; `seen` is the polling thread's only (poll is private to its loop); `loader` is a weak reference set in `init` and never reassigned.
final class PatchDropFolder: @unchecked Sendable {
    let directory: String
    let intervalMs: Int
    private weak var loader: PatchLoader?
    private let lock = PatchLock()
    private var stopped = false
    private var seen: [String: (size: Int, modified: Int)] = [:]

    init(directory: String, intervalMs: Int, loader: PatchLoader) {
        self.directory = directory
        self.intervalMs = max(1, min(intervalMs, 200))
        self.loader = loader
    }

    func start() {
        try? PatchFiles.createDirectory(directory)
        DetachedThread.start { [self] in loop() }
    }

    func stop() { lock.withLock { stopped = true } }

    private func loop() {
        while !lock.withLock({ stopped }) {
            poll()
            usleep(UInt32(intervalMs * 1000))
        }
    }

    /// One look at the folder.
    private func poll() {
        for name in FileSystem.entries(of: directory) where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            if FileSystem.linkTarget(path) != nil {
                refuse(path, "a symbolic link; the patches folder takes only files of its own, never a link out of the data folder")
                continue
            }
            guard let stamp = FileSystem.stamp(path) else { continue }
            if let before = seen[name], before == stamp {
                seen[name] = nil
                take(path)
            } else {
                seen[name] = stamp
            }
        }
    }

    private func take(_ path: String) {
        guard let loader, !lock.withLock({ stopped }) else { return }
        do {
            let patch = try SignedPatch.parse(try PatchFiles.read(path), file: path)
            try loader.apply(patch)
            FileSystem.remove(path)
            loader.report("patch \(patch.manifest.patchVersion) applied from \(path)")
        } catch {
            if error.code == .storage && error.message.hasSuffix("the app has stopped") { return }
            refuse(path, error.message)
        }
    }

    /// Moves `path` aside as `NAME.refused` (a link as the link itself), with why beside it.
    private func refuse(_ path: String, _ reason: String) {
        try? PatchFiles.write(reason + "\n", to: path + ".refused.txt")
        try? FileSystem.move(path, to: path + ".refused")
        loader?.report("\(path): refused: \(reason)")
    }
}
