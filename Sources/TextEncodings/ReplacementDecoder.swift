/// The replacement encoding's decoder: the first byte of the whole stream is one error, and then
/// the decoder is finished (whatever else comes is never decoded).
struct ReplacementDecoder {
    var errorReturned = false

    mutating func decode(_ queue: inout ByteQueue, into output: inout UTF16Output, fatal: Bool) -> Bool {
        guard queue.next() != nil else { return true }
        // finished: nothing after the first byte is read.
        while queue.next() != nil {}
        if errorReturned { return true }
        errorReturned = true
        if fatal { return false }
        output.append(UTF16Output.replacement)
        return true
    }
}
