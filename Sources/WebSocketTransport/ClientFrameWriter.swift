import NIOCore
import NIOWebSocket

/// Writes a batch of messages as the masked frames a client sends (RFC 6455 §5.2), all into one
/// buffer, which goes to the socket as one write below NIO's frame encoder. Frame by frame, each
/// message was a trip through the pipeline and two buffers (the encoder's header and the
/// payload): a third of an echo run's samples were the NIO thread's.
enum ClientFrameWriter {
    /// The bytes `messages` take as frames.
    static func size(of messages: [WebSocketConnection.Message]) -> Int {
        messages.reduce(0) { total, message in
            let count = message.payloadCount
            return total + count + 6 + (count < 126 ? 0 : count <= 0xFFFF ? 2 : 8)
        }
    }

    /// `messages` as frames, in order, each with a mask key of its own.
    static func frames(_ messages: [WebSocketConnection.Message], allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: size(of: messages))
        for message in messages {
            let count = message.payloadCount
            let opcode: WebSocketOpcode
            switch message {
            case .text: opcode = .text
            case .binary: opcode = .binary
            }
            // FIN, and the opcode's four bits.
            buffer.writeInteger(UInt8(0x80) | UInt8(webSocketOpcode: opcode))
            // The mask bit, then the length in 7 bits, or 126 and 16 bits, or 127 and 64 bits.
            if count < 126 {
                buffer.writeInteger(UInt8(0x80 | count))
            } else if count <= 0xFFFF {
                buffer.writeInteger(UInt8(0x80 | 126))
                buffer.writeInteger(UInt16(count))
            } else {
                buffer.writeInteger(UInt8(0x80 | 127))
                buffer.writeInteger(UInt64(count))
            }
            let key = MaskKeys.next()
            buffer.writeBytes(key)
            let start = buffer.writerIndex
            switch message {
            case .text(let text): buffer.writeString(text)
            case .binary(let bytes): buffer.writeBytes(bytes)
            }
            let keyBytes = (key[key.startIndex], key[key.startIndex + 1], key[key.startIndex + 2], key[key.startIndex + 3])
            let offset = start - buffer.readerIndex
            buffer.withUnsafeMutableReadableBytes { bytes in
                withUnsafeBytes(of: keyBytes) { key in
                    for index in 0..<count { bytes[offset + index] ^= key[index & 3] }
                }
            }
        }
        return buffer
    }
}

extension WebSocketConnection.Message {
    /// The payload's length in bytes: a text's UTF-8.
    var payloadCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }
}
