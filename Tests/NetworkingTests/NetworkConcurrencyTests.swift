import Bridge
import Foundation
import JSON
import Testing

@Suite("network: many requests at once, shared GETs, cancellation")
struct NetworkConcurrencyTests {
    @Test("1,000 concurrent requests are all answered")
    func thousand() async throws {
        let server = try await SharedServer.get()
        // The transport's own capacity, with the app's quota of transfers (256) raised out of the way.
        let call = try NetworkCall(quotas: AppQuotas(transfers: 1000))
        defer { call.remove() }
        let statuses = try await withThrowingTaskGroup(of: JSONValue?.self) { group in
            for i in 0..<1000 {
                group.addTask { try await call("request", ["url": .string(server.base + "/echo?i=\(i)")])["status"] }
            }
            var all: [JSONValue?] = []
            for try await status in group { all.append(status) }
            return all
        }
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    @Test("identical GETs in flight at once share one transfer; different headers do not")
    func shared() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = UUID().uuidString
        let url = JSONValue.string(server.base + "/count/\(name)?ms=400")
        let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<10 { group.addTask { try await call("request", ["url": url]) } }
            group.addTask { try await call("request", ["url": url, "headers": ["X-Other": "1"]]) }
            var all: [JSONValue] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(server.hits["count/\(name)"] == 2)
        #expect(answers.filter { $0["body"]?["hit"] == 1 }.count + answers.filter { $0["body"]?["hit"] == 2 }.count == 11)
        // Afterwards the next GET is a transfer of its own.
        _ = try await call("request", ["url": url])
        #expect(server.hits["count/\(name)"] == 3)
    }

    @Test("cancelling a request aborts its transfer at once")
    func cancellation() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let started = ContinuousClock.now
        let task = Task { try await call("request", ["url": .string(server.base + "/slow?ms=60000")]) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let outcome = await task.result
        guard case .failure(let error as BridgeError) = outcome else {
            Issue.record("expected a cancelled request, got \(outcome)")
            return
        }
        #expect(error.details?["reason"] == "cancelled")
        // Well before the server would have answered (a minute: more than a loaded machine adds).
        #expect(ContinuousClock.now - started < .seconds(40))
    }

    @Test("a shared transfer survives one caller cancelling and ends when the last one does")
    func sharedCancellation() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = UUID().uuidString
        let url = JSONValue.string(server.base + "/count/\(name)?ms=600")
        let leaving = Task { try await call("request", ["url": url]) }
        let staying = Task { try await call("request", ["url": url]) }
        try await Task.sleep(for: .milliseconds(150))
        leaving.cancel()
        let answer = try await staying.value
        #expect(answer["body"]?["hit"] == 1)
        #expect(server.hits["count/\(name)"] == 1)
    }
}

@Suite("network: the HTTP cache")
struct NetworkCacheTests {
    @Test("a fresh cached GET is answered without asking the server")
    func hit() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = UUID().uuidString
        let params: JSONValue = ["url": .string(server.base + "/cached/\(name)?maxAge=60"), "cache": true]
        let first = try await call("request", params)
        let second = try await call("request", params)
        #expect(first["cache"] == "miss")
        #expect(second["cache"] == "hit")
        #expect(second["body"] == first["body"])
        #expect(second["headers"]?["etag"] == "\"v1\"")
        #expect(server.hits["cached/\(name)/200"] == 1)
        // Without cache: true the cache is neither read nor written.
        _ = try await call("request", ["url": .string(server.base + "/cached/\(name)?maxAge=60")])
        #expect(server.hits["cached/\(name)/200"] == 2)
    }

    @Test("a stale entry is revalidated with If-None-Match and a 304 serves the stored body")
    func revalidation() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = UUID().uuidString
        let params: JSONValue = ["url": .string(server.base + "/cached/\(name)?maxAge=0"), "cache": true]
        let first = try await call("request", params)
        let second = try await call("request", params)
        #expect(second["cache"] == "revalidated")
        #expect(second["status"] == 200)
        #expect(second["body"] == first["body"])
        #expect(server.hits["cached/\(name)/200"] == 1)
        #expect(server.hits["cached/\(name)/304"] == 1)
    }

    @Test("no-store responses are never kept")
    func noStore() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let before = server.hits["nostore"]
        let params: JSONValue = ["url": .string(server.base + "/nostore"), "cache": true]
        _ = try await call("request", params)
        let second = try await call("request", params)
        #expect(second["cache"] == "miss")
        #expect(server.hits["nostore"] == before + 2)
    }

    @Test("the cache is per app and survives a new service instance (it lives in the data folder)")
    func onDisk() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let name = UUID().uuidString
        let params: JSONValue = ["url": .string(server.base + "/cached/\(name)?maxAge=60"), "cache": true]
        _ = try await call("request", params)
        let files = try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory + "/.http-cache")
        #expect(files.filter { $0.hasSuffix(".entry") }.count == 1)
        let other = try NetworkCall()
        defer { other.remove() }
        #expect(try await other("request", params)["cache"] == "miss")
    }
}
