import Glibc

/// Whether a TCP connection on 127.0.0.1 comes from this very process: `SO_PEERCRED` answers
/// for Unix sockets only, and JavaScriptCore's inspector connects over TCP. The kernel's table
/// (`/proc/net/tcp`) gives the inode of the socket at the connection's far end; one of this
/// process's descriptors must be that socket.
enum LoopbackPeer {
    static func isThisProcess(peerPort: Int, listeningPort: Int) -> Bool {
        guard let inode = socketInode(localPort: peerPort, remotePort: listeningPort) else { return false }
        return ownDescriptors().contains("socket:[\(inode)]")
    }

    /// The inode of the socket bound at 127.0.0.1:`localPort` and connected to 127.0.0.1:`remotePort`.
    static func socketInode(localPort: Int, remotePort: Int) -> String? {
        guard let table = read("/proc/net/tcp") else { return nil }
        // Addresses are hex, the IPv4 address in the kernel's byte order: 127.0.0.1 is 0100007F.
        let local = "0100007F:" + hex(localPort)
        let remote = "0100007F:" + hex(remotePort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[1] == local, fields[2] == remote else { continue }
            return String(fields[9])
        }
        return nil
    }

    private static func hex(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// What each of this process's descriptors points at (`socket:[INODE]` for a socket).
    private static func ownDescriptors() -> Set<String> {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var targets: Set<String> = []
        var buffer = [CChar](repeating: 0, count: 256)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true else { continue }
            let count = readlink("/proc/self/fd/" + name, &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            targets.insert(String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return targets
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
