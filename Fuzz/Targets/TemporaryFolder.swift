import Glibc

/// A new empty folder under /tmp for a harness's fixture (`hybrid-fuzz-<name>-XXXXXX`), made once
/// per process; left behind, like libFuzzer's own scratch files.
func temporaryFolder(_ name: String) -> String {
    var template = Array("/tmp/hybrid-fuzz-\(name)-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in String(cString: mkdtemp(buffer.baseAddress!)) }
}
