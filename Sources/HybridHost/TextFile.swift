import Engine
import Glibc

/// Writes a text file atomically: a temporary file beside it, then rename.
public enum TextFile {
    public static func write(_ text: String, to path: String) throws(FileReadError) {
        let temporary = path + ".tmp-\(getpid())"
        guard let file = fopen(temporary, "w") else { throw FileReadError(path: temporary, reason: String(cString: strerror(errno))) }
        var text = text
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == text.utf8.count, closed == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FileReadError(path: path, reason: reason)
        }
    }
}
