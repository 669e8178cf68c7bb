import DebugAdapter
import JSON
import Testing

@Suite("DAP framing")
struct DAPFramingTests {
    @Test("a message framed and read back in pieces of any size is the same message")
    func roundTrip() throws {
        let first: JSONValue = ["seq": 1, "type": "request", "command": "initialize", "arguments": ["adapterID": "hybrid", "text": "é ✓"]]
        let second: JSONValue = ["seq": 2, "type": "request", "command": "threads"]
        let bytes = Array((DAPFraming.frame(first) + DAPFraming.frame(second)).utf8)
        for size in [1, 3, 7, bytes.count] {
            var reader = DAPFrameReader()
            var read: [JSONValue] = []
            var index = 0
            while index < bytes.count {
                reader.append(bytes[index..<min(index + size, bytes.count)])
                index += size
                while let message = try reader.next() { read.append(message) }
            }
            #expect(read == [first, second], "in pieces of \(size) bytes")
        }
    }

    @Test("Content-Length counts bytes, not characters")
    func lengthInBytes() {
        let body = JSONWriter.write(["text": "é"])
        #expect(body.utf8.count == body.count + 1)
        #expect(DAPFraming.frame(["text": "é"]) == "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    @Test("a header without Content-Length is refused, and the next message still reads")
    func missingLength() throws {
        var reader = DAPFrameReader()
        reader.append(Array("Content-Type: x\r\n\r\n".utf8) + Array(DAPFraming.frame(["seq": 5]).utf8))
        #expect(throws: DebugAdapterError.self) { try reader.next() }
        #expect(try reader.next() == ["seq": 5])
    }

    @Test("a body that is not JSON is refused")
    func notJSON() {
        var reader = DAPFrameReader()
        reader.append(Array("Content-Length: 3\r\n\r\n{x}".utf8))
        #expect(throws: DebugAdapterError.self) { try reader.next() }
    }
}
