import Glibc

/// A disk that fills up on demand: a tmpfs of a given size mounted on a fresh folder, which can be
/// grown again in place (`remount`) without closing the files on it. Writing past its size fails
/// with ENOSPC exactly as a full disk does, which is what the storage tests need and SQLite's page
/// limits only imitate.
///
/// Mounting needs root (CAP_SYS_ADMIN), as this project's test machines run; without it ``init``
/// throws a message saying so, and the test fails rather than skip.
///
/// ```swift
/// let disk = try SmallDisk(kilobytes: 256)
/// defer { disk.remove() }
/// ```
public final class SmallDisk: Sendable {
    public struct MountError: Error, CustomStringConvertible {
        public let description: String
    }

    private let folder: TemporaryFolder
    public var path: String { folder.path }

    public init(kilobytes: Int) throws(MountError) {
        folder = TemporaryFolder(prefix: "small-disk")
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0 else {
            let reason = String(cString: strerror(errno))
            folder.remove()
            throw MountError(description: "mounting a \(kilobytes) KiB tmpfs on \(folder.path) failed (\(reason)); the disk tests need root")
        }
    }

    /// Gives the disk a new size; the files on it stay open and intact.
    public func resize(kilobytes: Int) throws(MountError) {
        guard mount("tmpfs", folder.path, "tmpfs", UInt(MS_REMOUNT), "size=\(kilobytes)k") == 0 else {
            throw MountError(description: "resizing the tmpfs on \(folder.path) failed (\(String(cString: strerror(errno))))")
        }
    }

    /// Unmounts the disk (lazily, should a file still be open) and removes its folder.
    public func remove() {
        _ = umount2(folder.path, Int32(MNT_DETACH))
        folder.remove()
    }
}
