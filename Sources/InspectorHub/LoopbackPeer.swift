import SystemIO

/// Whether a TCP connection on 127.0.0.1 comes from this very process: `SO_PEERCRED` answers
/// for Unix sockets only, and JavaScriptCore's inspector connects over TCP. The kernel's table
/// (`/proc/net/tcp`) gives the inode of the socket at the connection's far end; one of this
/// process's descriptors must be that socket.
enum LoopbackPeer {
    static func isThisProcess(peerPort: Int, listeningPort: Int) -> Bool {
        guard let inode = socketInode(localPort: peerPort, remotePort: listeningPort) else { return false }
        let socket = "socket:[\(inode)]"
        return FileSystem.entries(of: "/proc/self/fd").contains { FileSystem.linkTarget("/proc/self/fd/" + $0) == socket }
    }

    /// The inode of the socket bound at 127.0.0.1:`localPort` and connected to 127.0.0.1:`remotePort`.
    static func socketInode(localPort: Int, remotePort: Int) -> String? {
        guard let table = try? FileSystem.text(atPath: "/proc/net/tcp") else { return nil }
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
}
