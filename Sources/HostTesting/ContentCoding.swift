import SystemIO

/// An HTTP body's content coding (`Content-Encoding: gzip` or `deflate`) undone by another
/// implementation than the servers' (python3's zlib module, not the Deflate module), so that a test
/// of the servers' compression reads what any client would.
///
/// ```swift
/// let plain = try ContentCoding.decode(Array(response.body.readableBytesView), coding: "gzip")
/// ```
public enum ContentCoding {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes `body` encodes in `coding` ("gzip" or "deflate", zlib's framing as HTTP's deflate is).
    public static func decode(_ body: [UInt8], coding: String) throws -> [UInt8] {
        let windowBits = switch coding {
        case "gzip": "31"
        case "deflate": "15"
        default: throw Failure(description: "Content-Encoding: expected gzip or deflate, got \(coding)")
        }
        let script = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read(), \(windowBits)))"
        let result = try ChildProcess.run("python3", ["-c", script], input: body)
        guard result.status == 0 else {
            throw Failure(description: "\(coding) body of \(body.count) bytes does not decode: \(String(decoding: result.errorOutput, as: UTF8.self))")
        }
        return result.output
    }
}
