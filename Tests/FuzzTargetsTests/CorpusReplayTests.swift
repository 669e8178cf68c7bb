import FuzzTargets
import HostTesting
import SystemIO
import Testing

/// Every seed of `Fuzz/Corpus/<target>/` through its harness, as `hybrid-fuzz` runs it but without
/// sanitizers: the harnesses build and run under plain `swift test`, so they cannot rot between
/// runs of `make fuzz`, and every input that once found a bug stays a test.
@Suite("fuzz corpus replay")
struct CorpusReplayTests {
    static let targets = FuzzTarget.all.map(\.name)

    @Test("each seed runs through its harness without a finding", arguments: targets)
    func replay(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = Repository.path("Fuzz/Corpus/\(name)")
        let files = FileSystem.entries(of: folder).sorted()
        #expect(files.count >= 3, "\(folder) holds \(files.count) seeds")
        for file in files {
            let bytes = try FileSystem.bytes(atPath: folder + "/" + file)
            #expect(throws: Never.self, "\(name)/\(file)") { try target.run(bytes) }
        }
    }

    @Test("every target has a corpus folder, and every corpus folder a target")
    func corpusFolders() {
        let folders = Set(FileSystem.entries(of: Repository.path("Fuzz/Corpus")))
        #expect(folders == Set(Self.targets))
    }
}
