import Glibc
import GRDBSQLite
import Synchronization

/// A SQLite VFS over the default one ("unix") that fails writes to the files under one folder on
/// demand, as a disk that returns EIO does: the unix VFS answers such a write with
/// `SQLITE_IOERR_WRITE` (a failed fsync with `SQLITE_IOERR_FSYNC`), and so does this one, while
/// reads go on. Registered as the default VFS for the test process, so the connections the
/// services open after ``install()`` go through it; files elsewhere, and every file while no
/// fault is set, are only passed through.
///
/// No file system fault does this for a test: tmpfs never returns EIO, and a read-only remount
/// is refused while a connection holds a file open for writing.
public enum FaultingVFS {
    // sqlite3.h's extended codes are macros Swift does not import: SQLITE_IOERR | (n << 8).
    private static let ioErrorWrite = SQLITE_IOERR | (3 << 8)
    private static let ioErrorFsync = SQLITE_IOERR | (4 << 8)
    private static let ioErrorTruncate = SQLITE_IOERR | (6 << 8)

    /// The folder whose files fail their writes, or nil.
    private static let faulted = Mutex<String?>(nil)
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>!
    nonisolated(unsafe) private static var vfs = sqlite3_vfs()
    nonisolated(unsafe) private static var methods = sqlite3_io_methods()

    /// One open file: SQLite's header (our methods), the name SQLite keeps alive until close, and
    /// the base VFS's own file, which follows this struct in the same allocation.
    private struct File {
        var header: sqlite3_file
        var name: UnsafePointer<CChar>?
    }

    private static let installed: Void = {
        base = sqlite3_vfs_find(nil)
        vfs = base.pointee
        vfs.pNext = nil
        vfs.zName = UnsafePointer(strdup("faulting"))
        vfs.szOsFile = Int32(MemoryLayout<File>.stride) + base.pointee.szOsFile
        vfs.xOpen = { _, name, file, flags, outFlags in
            let wrapper = UnsafeMutableRawPointer(file!).assumingMemoryBound(to: File.self)
            wrapper.pointee.header.pMethods = nil
            let rc = base.pointee.xOpen!(base, name, FaultingVFS.real(file!), flags, outFlags)
            guard rc == SQLITE_OK else { return rc }
            wrapper.pointee.name = name
            wrapper.pointee.header.pMethods = withUnsafePointer(to: &methods) { $0 }
            return SQLITE_OK
        }
        methods.iVersion = 3
        methods.xClose = { file in forward(file) { $0.xClose!($1) } }
        methods.xRead = { file, buffer, count, offset in forward(file) { $0.xRead!($1, buffer, count, offset) } }
        methods.xWrite = { file, buffer, count, offset in
            isFaulted(file) ? ioErrorWrite : forward(file) { $0.xWrite!($1, buffer, count, offset) }
        }
        methods.xTruncate = { file, size in isFaulted(file) ? ioErrorTruncate : forward(file) { $0.xTruncate!($1, size) } }
        methods.xSync = { file, flags in isFaulted(file) ? ioErrorFsync : forward(file) { $0.xSync!($1, flags) } }
        methods.xFileSize = { file, size in forward(file) { $0.xFileSize!($1, size) } }
        methods.xLock = { file, lock in forward(file) { $0.xLock!($1, lock) } }
        methods.xUnlock = { file, lock in forward(file) { $0.xUnlock!($1, lock) } }
        methods.xCheckReservedLock = { file, out in forward(file) { $0.xCheckReservedLock!($1, out) } }
        methods.xFileControl = { file, op, argument in forward(file) { $0.xFileControl!($1, op, argument) } }
        methods.xSectorSize = { file in forward(file) { $0.xSectorSize!($1) } }
        methods.xDeviceCharacteristics = { file in forward(file) { $0.xDeviceCharacteristics!($1) } }
        methods.xShmMap = { file, page, size, extend, address in forward(file) { $0.xShmMap!($1, page, size, extend, address) } }
        methods.xShmLock = { file, offset, count, flags in forward(file) { $0.xShmLock!($1, offset, count, flags) } }
        methods.xShmBarrier = { file in
            let real = FaultingVFS.real(file!)
            real.pointee.pMethods.pointee.xShmBarrier!(real)
        }
        methods.xShmUnmap = { file, delete in forward(file) { $0.xShmUnmap!($1, delete) } }
        methods.xFetch = { file, offset, count, pointer in forward(file) { $0.xFetch!($1, offset, count, pointer) } }
        methods.xUnfetch = { file, offset, pointer in forward(file) { $0.xUnfetch!($1, offset, pointer) } }
        precondition(sqlite3_vfs_register(&vfs, 1) == SQLITE_OK, "could not register the faulting VFS")
    }()

    /// Makes this VFS the default, once per process. Connections opened before keep theirs.
    public static func install() { _ = installed }

    /// Writes to the files under `folder` fail from now on, until ``clear()``.
    public static func failWrites(under folder: String) { faulted.withLock { $0 = folder.hasSuffix("/") ? folder : folder + "/" } }

    public static func clear() { faulted.withLock { $0 = nil } }

    private static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + MemoryLayout<File>.stride).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func forward(_ file: UnsafeMutablePointer<sqlite3_file>?,
                                _ call: (sqlite3_io_methods, UnsafeMutablePointer<sqlite3_file>) -> Int32) -> Int32 {
        let real = real(file!)
        return call(real.pointee.pMethods.pointee, real)
    }

    private static func isFaulted(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Bool {
        guard let name = UnsafeMutableRawPointer(file!).assumingMemoryBound(to: File.self).pointee.name else { return false }
        return faulted.withLock { folder in folder.map { String(cString: name).hasPrefix($0) } ?? false }
    }
}
