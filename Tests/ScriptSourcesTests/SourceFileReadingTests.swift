import HostTesting
import SystemIO
import Testing

/// Module sources and cached transforms are read with `FileSystem.bytes`: every byte, whatever
/// size the file reports.
@Suite struct SourceFileReadingTests {
    @Test("a file is read whole: empty, one byte, and larger than one read's first guess", arguments: [0, 1, 4095, 4096, 70_000, 300_001])
    func wholeFile(size: Int) throws {
        let folder = TemporaryFolder(prefix: "file-reading-tests")
        defer { folder.remove() }
        let text = String((0..<size).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        try folder.write("source.js", text)
        #expect(try FileSystem.text(atPath: folder.path + "/source.js") == text)
    }

    @Test("a /proc file, which reports a size of 0, is read to its end")
    func procFile() throws {
        let status = try FileSystem.text(atPath: "/proc/self/status")
        #expect(status.hasPrefix("Name:"))
        #expect(status.contains("\nPid:"))
        #expect(status.hasSuffix("\n"))
    }
}
