import Bridge
import CurlTransport
import Foundation
import JSON
import Testing

/// `network.fetch`, `read` and `cancel`, what the web platform's `fetch()` sends through, against
/// the real test server: bodies whole or streamed, backpressure, redirect and cache modes.
@Suite("network.fetch: heads first, bodies streamed with backpressure")
struct NetworkFetchTests {
    @Test("a small answer comes whole with its head: status line, header pairs in order, bytes")
    func wholeWithHead() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let answer = try await call("fetch", ["url": .string(server.base + "/small")])
        #expect(answer["status"] == 200)
        #expect(answer["statusText"] == "OK")
        #expect(answer["body"] == .bytes(Array("ok".utf8)))
        #expect(answer["stream"] == nil)
        #expect(answer["redirected"] == false)
        #expect(answer["url"] == .string(server.base + "/small"))
        let names = answer["headers"]?.arrayValue?.compactMap { $0[0]?.stringValue } ?? []
        #expect(names.contains("content-type") && names.contains("content-length"), "\(names)")
    }

    @Test("a body that arrives over time is read chunk by chunk, every byte in order")
    func streamed() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let n = 3_000_000
        let answer = try await call("fetch", ["url": .string(server.base + "/bytes?n=\(n)&chunks=30&chunkMs=5")])
        #expect(answer["body"] == nil)
        let stream = try #require(answer["stream"])
        let body = try await readAll(call, stream)
        #expect(body.count == n)
        #expect(body == (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        // Ended: the id is forgotten.
        #expect(await call.failure("read", ["stream": stream])?.code == .badParams)
    }

    @Test("an unread body holds the server back: about 1 MiB waits here, the rest stays unsent until read")
    func backpressure() async throws {
        let n = 64 << 20
        let server = try FloodServer(size: n)
        let call = try NetworkCall()
        defer { call.remove() }
        let answer = try await call("fetch", ["url": .string("http://127.0.0.1:\(server.port)/")])
        let stream = try #require(answer["stream"])
        try await Task.sleep(for: .milliseconds(500))
        // What the server could write with nobody reading: the 1 MiB here plus the sockets'
        // buffers (a few MiB on loopback), far from the 64 MiB it was asked for.
        #expect(server.written < 24 << 20, "the server wrote \(server.written) bytes to a reader that read none")
        let body = try await readAll(call, stream)
        #expect(body.count == n)
        #expect(server.written == n)
    }

    @Test("cancel aborts the transfer and frees its slot for the request waiting behind it")
    func cancelFreesTheSlot() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        // Six unread floods take the host's six connections (network.connectionsPerHost).
        var streams: [JSONValue] = []
        for index in 0..<6 {
            // Four seconds of body each, unless cancelled.
            let answer = try await call("fetch", ["url": .string(server.base + "/bytes?n=\(1 << 20)&chunks=40&chunkMs=100&i=\(index)")])
            streams.append(try #require(answer["stream"]))
        }
        let answered = HitCounter()
        let waiting = Task {
            defer { answered.add("small") }
            return try await call("fetch", ["url": .string(server.base + "/small")])
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(answered["small"] == 0, "a seventh request to the host started while six bodies held its connections")
        #expect(try await call("cancel", ["stream": streams[0]])["cancelled"] == true)
        #expect(try await call("cancel", ["stream": streams[0]])["cancelled"] == false)
        let answer = try await waiting.value
        #expect(answer["body"] == .bytes(Array("ok".utf8)))
        for stream in streams.dropFirst() { _ = try await call("cancel", ["stream": stream]) }
    }

    @Test("redirect modes: follow says it was redirected, manual answers the 3xx, error fails naming the Location")
    func redirects() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let url = JSONValue.string(server.base + "/redirect?to=/small")
        let followed = try await call("fetch", ["url": url])
        #expect(followed["status"] == 200 && followed["redirected"] == true)
        #expect(followed["url"] == .string(server.base + "/small"))
        let manual = try await call("fetch", ["url": url, "redirect": "manual"])
        #expect(manual["status"] == 302 && manual["redirected"] == false)
        #expect(manual["headers"]?.arrayValue?.contains(["location", "/small"]) == true)
        let refused = await call.failure("fetch", ["url": url, "redirect": "error"])
        #expect(refused?.code == .failed && refused?.details?["reason"] == "redirect")
        #expect(refused?.details?["location"] == "/small")
    }

    @Test("cache modes on the app's HTTP cache: miss then hit, no-store bypasses, stale is revalidated, only-if-cached never asks")
    func cacheModes() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let fresh = "fetch-fresh-" + UUID().uuidString
        let url = JSONValue.string(server.base + "/cached/\(fresh)?maxAge=60")
        #expect(try await call("fetch", ["url": url])["cache"] == "miss")
        let hit = try await call("fetch", ["url": url])
        #expect(hit["cache"] == "hit")
        #expect(try JSONParser.parse(hit["body"]?.bytesValue ?? [])["served"] == 1)
        let bypass = try await call("fetch", ["url": url, "cache": "no-store"])
        #expect(bypass["cache"] == nil)
        #expect(server.hits["cached/\(fresh)/200"] == 2)

        let stale = "fetch-stale-" + UUID().uuidString
        let staleURL = JSONValue.string(server.base + "/cached/\(stale)?maxAge=0")
        #expect(try await call("fetch", ["url": staleURL])["cache"] == "miss")
        #expect(try await call("fetch", ["url": staleURL, "cache": "force-cache"])["cache"] == "hit")
        let revalidated = try await call("fetch", ["url": staleURL])
        #expect(revalidated["cache"] == "revalidated" && revalidated["status"] == 200)
        #expect(server.hits["cached/\(stale)/304"] == 1)

        let never = await call.failure("fetch", ["url": .string(server.base + "/cached/none-\(UUID().uuidString)"), "cache": "only-if-cached"])
        #expect(never?.code == .failed && never?.details?["reason"] == "not_cached")
        #expect(await call.failure("fetch", ["url": url, "method": "POST", "cache": "only-if-cached"])?.path == "/cache")
    }

    @Test("HEAD has a null body; a body cut off midway fails its fetch or its read with the network's reason")
    func noBodyAndBrokenBody() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let head = try await call("fetch", ["url": .string(server.base + "/echo"), "method": "HEAD"])
        #expect(head["status"] == 200 && head["body"] == .null)

        let broken = try HalfBodyServer()
        do {
            let answer = try await call("fetch", ["url": .string("http://127.0.0.1:\(broken.port)/")])
            let stream = try #require(answer["stream"], "a cut-off body cannot come whole")
            let failure = await failureReading(call, stream)
            #expect(failure?.code == .failed && failure?.details?["reason"] != nil, "\(String(describing: failure))")
        } catch let error as BridgeError {
            #expect(error.code == .failed && error.details?["reason"] != nil, "\(error)")
        }
    }

    @Test("the app's cookie jar: Set-Cookie answers are stored and sent back by path, kept across runs, left out with credentials omit")
    func cookies() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let set = "/set-cookie?c=session%3Dabc%3B%20Path%3D%2F%3B%20Max-Age%3D3600&c=scoped%3D1%3B%20Path%3D%2Fonly"
        _ = try await call("fetch", ["url": .string(server.base + set)])
        let echoed = try await call("fetch", ["url": .string(server.base + "/echo")])
        #expect(try JSONParser.parse(echoed["body"]?.bytesValue ?? [])["headers"]?["cookie"] == "session=abc")
        let omitted = try await call("fetch", ["url": .string(server.base + "/echo"), "credentials": "omit"])
        #expect(try JSONParser.parse(omitted["body"]?.bytesValue ?? [])["headers"]?["cookie"] == nil)
        #expect(FileManager.default.fileExists(atPath: call.dataDirectory + "/.cookies"))

        // The next process, in the same data folder: a jar of its own reads the file.
        var request = TransferRequest(url: server.base + "/echo")
        request.cookieJar = CookieJar(path: call.dataDirectory + "/.cookies")
        let next = try await CurlClient.shared.perform(request)
        #expect(try JSONParser.parse(next.body)["headers"]?["cookie"] == "session=abc")
    }

    private func readAll(_ call: NetworkCall, _ stream: JSONValue) async throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let chunk = try await call("read", ["stream": stream])
            if chunk["done"] == true { return body }
            body += chunk["bytes"]?.bytesValue ?? []
        }
    }

    private func failureReading(_ call: NetworkCall, _ stream: JSONValue) async -> BridgeError? {
        do {
            _ = try await readAll(call, stream)
            return nil
        } catch {
            return error as? BridgeError
        }
    }
}
