import Glibc
import HybridHost

/// Scratch folders for benchmark scripts.
enum TemporaryFolder {
    static func make() -> String {
        var template = Array("/tmp/hybrid-bench-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    static func remove(_ path: String) {
        guard path.hasPrefix("/tmp/hybrid-bench-") else { return }
        var status: Int32 = 0
        var pid = pid_t()
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("rm"), strdup("-rf"), strdup(path), nil]
        defer { argv.forEach { free($0) } }
        if posix_spawnp(&pid, "rm", nil, nil, argv, environ) == 0 { waitpid(pid, &status, 0) }
    }
}
