import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// One hop of a request on one curl easy handle: what curl is told, and what comes back.
///
/// Lives on ``CurlLoop``'s thread from `start` to `finish`; only the continuation crosses threads.
/// curl's callbacks reach it through an unretained pointer: the loop's table of running transfers
/// keeps it alive until curl is done with the handle.
// @unchecked: mutable state is touched by the task that makes it until it is handed over through CurlLoop's locked inbox, then only on the curl thread (CurlLoop.assertOnLoopThread() in begin/stop); only the continuation crosses threads.
final class CurlTransfer: @unchecked Sendable {
    let request: TransferRequest
    private var continuation: CheckedContinuation<Hop, any Error>?

    var handle: UnsafeMutableRawPointer?
    /// Set (on the curl thread) when a cancel arrived before the loop started it: the start that
    /// follows, if one does, ends it at once.
    var cancelledBeforeStart = false

    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// This hop's own `--resolve` list (its host's addresses after the process's pins), if any.
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private var bodyCopy: UnsafeMutableRawBufferPointer?
    private var received: [UInt8] = []
    private var receivedCount: Int64 = 0
    private var headers: [(name: String, value: String)] = []
    /// The status line's, as it arrived (the final answer's once its head is in).
    private var statusCode = 0
    private var statusText = ""
    /// ``TransferSink/stream`` only: the body's reader, once the head was handed over.
    private var stream: ResponseBodyStream?
    /// An answer of this hop set a cookie, which the request's jar saves when it ends.
    private var setCookie = false
    private var overLimit = false
    /// The errno of a failed write to the file sink, or 0.
    private var writeError: Int32 = 0
    private var lastProgress: Int64 = -1

    /// What one hop produced: the response, and where a 3xx pointed.
    struct Hop: Sendable {
        var response: TransferResponse
        var redirectURL: String?
    }

    init(request: TransferRequest, continuation: CheckedContinuation<Hop, any Error>) {
        self.request = request
        self.continuation = continuation
    }

    deinit {
        if let headerList { hh_slist_free_all(headerList) }
        if let resolveList { hh_slist_free_all(resolveList) }
        bodyCopy?.deallocate()
    }

    /// Configures `handle` (fresh or reset) for this hop.
    func configure(_ handle: UnsafeMutableRawPointer) {
        self.handle = handle
        let me = Unmanaged.passUnretained(self).toOpaque()
        hh_easy_setopt_string(handle, CURLOPT_URL, request.url)
        hh_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        hh_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        hh_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        hh_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        hh_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        hh_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        hh_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        hh_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody)
        hh_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
        hh_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        hh_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
        if let timeout = request.timeoutMs { hh_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, timeout)) }
        if let timeout = request.connectTimeoutMs { hh_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, timeout)) }
        if let maxBytes = request.maxBytes { hh_easy_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes)) }
        if let jar = request.cookieJar { jar.attach(to: handle) }
        if let userAgent = request.userAgent { hh_easy_setopt_string(handle, CURLOPT_USERAGENT, userAgent) }
        if let pins = request.hop?.pinnedPublicKeys { hh_easy_setopt_string(handle, CURLOPT_PINNEDPUBLICKEY, pins) }
        if let caFile = request.hop?.caFile { hh_easy_setopt_string(handle, CURLOPT_CAINFO, caFile) }
        if request.onProgress != nil {
            hh_easy_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            hh_easy_setopt_xferinfo_function(handle, curlProgress)
            hh_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
        }

        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers {
            // "Name;" is curl's way to send a header with an empty value; "Name:" would remove it.
            list = hh_slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        let method = request.method.uppercased()
        if let body = request.body {
            // No "Expect: 100-continue" round trip before bodies over 1 KB.
            list = hh_slist_append(list, "Expect:")
            // A body sent without a type goes without one: curl would label it
            // application/x-www-form-urlencoded.
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                list = hh_slist_append(list, "Content-Type:")
            }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
            copy.copyBytes(from: body)
            bodyCopy = copy
            hh_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            hh_easy_setopt_pointer(handle, CURLOPT_POSTFIELDS, copy.baseAddress)
            if method != "POST" { hh_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "GET" {
            hh_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
        } else if method == "HEAD" {
            hh_easy_setopt_long(handle, CURLOPT_NOBODY, 1)
        } else {
            hh_easy_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }
        headerList = list
        if let list { hh_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list) }
        if case .file(let fd) = request.sink {
            _ = ftruncate(fd, 0)
            _ = lseek(fd, 0, SEEK_SET)
        }
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let maxBytes = request.maxBytes, receivedCount + Int64(bytes.count) > Int64(maxBytes) {
            overLimit = true
            return 0
        }
        if let stream {
            guard stream.offer(bytes) else { return Int(CURL_WRITEFUNC_PAUSE) }
            receivedCount += Int64(bytes.count)
            return bytes.count
        }
        switch request.sink {
        case .memory, .stream:
            received.append(contentsOf: bytes)
        case .file(let fd):
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    writeError = errno
                    return 0
                }
                offset += n
            }
        }
        receivedCount += Int64(bytes.count)
        return bytes.count
    }

    /// One header line as curl hands it over, CRLF included (``ResponseHeaderLine``).
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch ResponseHeaderLine(bytes) {
        case .status(let code, let reason):
            headers.removeAll(keepingCapacity: true)
            statusCode = code
            statusText = reason
        case .field(let name, let value):
            headers.append((name, value))
            if name == "set-cookie" { setCookie = true }
        case .end:
            // The final answer's head (not a 1xx, nor a redirect that will be followed): handed
            // over when the loop's round ends, with whatever body came along in that round.
            if case .stream = request.sink, statusCode >= 200, !willBeFollowed {
                CurlLoop.shared.headArrived(self)
            }
        case .other: break
        }
        return bytes.count
    }

    /// A redirect that ``CurlClient`` follows: its body is not the answer's.
    private var willBeFollowed: Bool {
        request.followRedirects && TransferResponse.redirectStatuses.contains(statusCode) && headers.contains { $0.name == "location" }
    }

    /// For ``TransferSink/stream``: hands the head over, the body so far in a stream that the rest
    /// goes to. Called by the loop after the round in which the head arrived; a transfer that
    /// finished in that round already answered with its whole body.
    func deliverHead() {
        guard let continuation, let handle else { return }
        self.continuation = nil
        let body = ResponseBodyStream(received: received,
                                      resume: { [self] in CurlLoop.shared.resume(self) },
                                      abort: { [self] in CurlLoop.shared.cancel(self) })
        received = []
        stream = body
        var response = TransferResponse(status: statusCode, statusText: statusText, headers: headers, body: [], url: request.url,
                                        timing: timing(handle), bodySize: receivedCount, stream: body)
        var effective: UnsafeMutablePointer<CChar>?
        hh_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        if let effective { response.url = String(cString: effective) }
        response.httpVersion = Self.httpVersion(handle)
        continuation.resume(returning: Hop(response: response, redirectURL: nil))
    }

    /// The `--resolve` list for a hop whose host has addresses of its own: the process's `pins`,
    /// then `host:port:a,b,...` (curl reads a list in order; the later entry for a name wins).
    /// nil when the hop has none (the loop's shared list applies).
    func resolveList(after pins: [String]) -> UnsafeMutablePointer<curl_slist>? {
        guard let addresses = request.hop?.addresses, !addresses.isEmpty, let target = try? URLTarget(request.url) else { return nil }
        var list: UnsafeMutablePointer<curl_slist>?
        for pin in pins { list = hh_slist_append(list, pin) }
        let bracketed = addresses.map { $0.contains(":") ? "[\($0)]" : $0 }
        list = hh_slist_append(list, "\(target.host):\(target.port):\(bracketed.joined(separator: ","))")
        resolveList = list
        return list
    }

    /// Saves the cookies an answer set and takes the handle off the jar, before the handle is
    /// reset (loop thread).
    func detachCookies() {
        if let jar = request.cookieJar, let handle { jar.detach(from: handle, setCookie: setCookie) }
    }

    /// Resumes a transfer its stream paused (loop thread).
    func resumeReading() {
        if let handle { _ = hh_easy_pause(handle, 0) }
    }

    fileprivate func progress(total: Int64, now: Int64) -> Int32 {
        if now != lastProgress, let onProgress = request.onProgress {
            lastProgress = now
            onProgress(now, total > 0 ? total : nil)
        }
        return 0
    }

    /// Resumes the waiting task with curl's verdict. Called once, on the loop thread.
    func finish(_ code: CURLcode) {
        if let stream {
            stream.end(code == CURLE_OK ? nil : failure(code))
            return
        }
        guard let continuation else { return }
        self.continuation = nil
        guard code == CURLE_OK, let handle else {
            continuation.resume(throwing: failure(code))
            return
        }
        var status = 0
        hh_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        hh_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        var redirect: UnsafeMutablePointer<CChar>?
        hh_easy_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect)
        var response = TransferResponse(status: status, statusText: statusText, headers: headers, body: received,
                                        url: effective.map { String(cString: $0) } ?? request.url, timing: timing(handle), bodySize: receivedCount)
        response.httpVersion = Self.httpVersion(handle)
        continuation.resume(returning: Hop(response: response, redirectURL: redirect.map { String(cString: $0) }))
    }

    private static func httpVersion(_ handle: UnsafeMutableRawPointer) -> String {
        var version = 0
        hh_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        switch version {
        case CURL_HTTP_VERSION_1_0: return "1.0"
        case CURL_HTTP_VERSION_1_1: return "1.1"
        case CURL_HTTP_VERSION_2_0: return "2"
        case CURL_HTTP_VERSION_3: return "3"
        default: return ""
        }
    }

    private func timing(_ handle: UnsafeMutableRawPointer) -> TransferTiming {
        var total: curl_off_t = 0, connect: curl_off_t = 0, firstByte: curl_off_t = 0
        hh_easy_getinfo_offset(handle, CURLINFO_TOTAL_TIME_T, &total)
        hh_easy_getinfo_offset(handle, CURLINFO_CONNECT_TIME_T, &connect)
        hh_easy_getinfo_offset(handle, CURLINFO_STARTTRANSFER_TIME_T, &firstByte)
        return TransferTiming(totalMs: Double(total) / 1000, connectMs: Double(connect) / 1000, firstByteMs: Double(firstByte) / 1000)
    }

    /// Ends a transfer that never ran or was taken off the loop.
    func cancel() {
        stream?.end(TransferError(.cancelled, "the request was cancelled", url: request.url))
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(throwing: TransferError(.cancelled, "the request was cancelled", url: request.url))
    }

    private func failure(_ code: CURLcode) -> TransferError {
        let curlMessage = String(cString: hh_easy_strerror(code))
        if overLimit || code == CURLE_FILESIZE_EXCEEDED {
            return TransferError(.bodyTooLarge, "the response body is larger than maxBytes (\(request.maxBytes ?? 0) bytes)",
                                 curlCode: Int(code.rawValue), url: request.url)
        }
        if writeError != 0 {
            let reason: TransferError.Reason = switch writeError {
            case ENOSPC, EDQUOT: .diskFull
            case EROFS: .readOnly
            default: .io
            }
            return TransferError(reason, "could not write the response body: \(String(cString: strerror(writeError)))",
                                 curlCode: Int(code.rawValue), url: request.url)
        }
        return TransferError(TransferError.reason(for: code), "\(curlMessage) (curl error \(code.rawValue)) fetching \(request.url)",
                             curlCode: Int(code.rawValue), url: request.url)
    }
}

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(pointer!).takeUnretainedValue()
}

private let curlWriteBody: curl_write_callback = { data, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlWriteHeader: curl_write_callback = { data, size, count, userdata in
    transfer(userdata).receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlProgress: curl_xferinfo_callback = { userdata, total, now, _, _ in
    transfer(userdata).progress(total: Int64(total), now: Int64(now))
}
