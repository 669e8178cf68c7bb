import Bridge
import Foundation
import JSON
import Testing

@Suite("network.request against a real server on 127.0.0.1")
struct NetworkRequestTests {
    @Test("every method reaches the server as itself", arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func methods(method: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let result = try await call("request", ["url": .string(server.base + "/echo"), "method": .string(method)])
        #expect(result["status"] == 200)
        #expect(result["body"]?["method"] == .string(method))
    }

    @Test("HEAD answers with headers and no body")
    func head() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let result = try await call("request", ["url": .string(server.base + "/echo"), "method": "HEAD", "responseType": "text"])
        #expect(result["status"] == 200)
        #expect(result["body"] == "")
    }

    @Test("request headers arrive; response headers come back lower-cased")
    func headers() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let result = try await call("request", ["url": .string(server.base + "/echo"), "headers": ["X-Trace": "abc 123", "Accept": "application/json"]])
        #expect(result["body"]?["headers"]?["x-trace"] == "abc 123")
        #expect(result["headers"]?["content-type"] == "application/json")
        #expect(result["url"] == .string(server.base + "/echo"))
        #expect((result["timing"]?["totalMs"]?.numberValue ?? -1) >= 0)
    }

    @Test("a json body is sent as JSON and a JSON answer is parsed")
    func jsonRoundTrip() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let sent: JSONValue = ["title": "milk", "tags": ["a", "ü"], "n": 3]
        let result = try await call("request", ["url": .string(server.base + "/echo"), "json": sent])
        #expect(result["body"]?["method"] == "POST")
        #expect(result["body"]?["headers"]?["content-type"] == "application/json")
        let echoed = try JSONParser.parse(result["body"]?["body"]?.stringValue ?? "")
        #expect(echoed == sent)
    }

    @Test("binary bodies cross both ways byte for byte")
    func binary() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let result = try await call("request", ["url": .string(server.base + "/echo?raw=1"), "method": "PUT", "bytes": .bytes(bytes),
                                                "headers": ["Content-Type": "application/octet-stream"], "responseType": "bytes"])
        #expect(result["body"] == .bytes(bytes))
    }

    @Test("HTTP error statuses are results, not errors")
    func statuses() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        for code in [404, 500, 418] {
            let result = try await call("request", ["url": .string(server.base + "/status/\(code)")])
            #expect(result["status"] == .number(Double(code)))
            #expect(result["body"] == .string("status \(code)"))
        }
    }

    @Test("redirects are followed unless asked not to")
    func redirects() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let followed = try await call("request", ["url": .string(server.base + "/redirect?to=/echo")])
        #expect(followed["status"] == 200)
        #expect(followed["url"] == .string(server.base + "/echo"))
        let kept = try await call("request", ["url": .string(server.base + "/redirect?to=/echo"), "followRedirects": false])
        #expect(kept["status"] == 302)
        #expect(kept["headers"]?["location"] == "/echo")
    }

    @Test("303 turns a POST into a GET; 307 repeats the POST with its body")
    func redirectMethods() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let seeOther = try await call("request", ["url": .string(server.base + "/redirect?to=/echo&code=303"), "body": "payload"])
        #expect(seeOther["body"]?["method"] == "GET")
        #expect(seeOther["body"]?["size"] == 0)
        let temporary = try await call("request", ["url": .string(server.base + "/redirect?to=/echo&code=307"), "body": "payload"])
        #expect(temporary["body"]?["method"] == "POST")
        #expect(temporary["body"]?["body"] == "payload")
    }

    @Test("a redirect to a host outside the grants is E_DENIED and never fetched")
    func redirectToUngrantedHost() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.remove() }
        let name = UUID().uuidString
        let error = await call.failure("request", ["url": .string(server.base + "/redirect?to=http://localhost:\(server.port)/count/\(name)")])
        #expect(error?.code == .denied)
        #expect(error?.message.contains("localhost") == true)
        #expect(server.hits["count/\(name)"] == 0)
    }

    @Test("a host outside the grants is E_DENIED; an unqualified grant allows any host")
    func grants() async throws {
        let server = try await SharedServer.get()
        let narrow = try NetworkCall(grants: ["network:localhost"])
        defer { narrow.remove() }
        #expect(await narrow.failure("request", ["url": .string(server.base + "/small")])?.code == .denied)
        let wide = try NetworkCall(grants: ["network"])
        defer { wide.remove() }
        #expect(try await wide("request", ["url": .string("http://localhost:\(server.port)/small")])["status"] == 200)
    }

    @Test("more than ten redirects is E_FAILED too_many_redirects")
    func tooManyRedirects() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        #expect(try await call("request", ["url": .string(server.base + "/chain/10")])["body"] == "end")
        let error = await call.failure("request", ["url": .string(server.base + "/chain/11")])
        #expect(error?.code == .failed)
        #expect(error?.details?["reason"] == "too_many_redirects")
    }

    @Test("a slow server past timeoutMs is E_FAILED timeout")
    func timeout() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", ["url": .string(server.base + "/slow?ms=3000"), "timeoutMs": 200])
        #expect(error?.details?["reason"] == "timeout")
    }

    @Test("a server that hangs up mid-body is E_FAILED protocol")
    func closedMidBody() async throws {
        let server = try HalfBodyServer()
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", ["url": .string("http://127.0.0.1:\(server.port)/")])
        #expect(error?.code == .failed)
        #expect(error?.details?["reason"] == "protocol")
    }

    @Test("nothing listening is E_FAILED connect")
    func refused() async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", ["url": "http://127.0.0.1:1/"])
        #expect(error?.details?["reason"] == "connect")
        #expect(error?.details?["curlCode"] == 7)
    }

    @Test("a body over maxBytes is E_FAILED body_too_large")
    func maxBytes() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", ["url": .string(server.base + "/bytes?n=10000&chunks=4"), "maxBytes": 100])
        #expect(error?.details?["reason"] == "body_too_large")
        let fits = try await call("request", ["url": .string(server.base + "/bytes?n=100"), "maxBytes": 100, "responseType": "bytes"])
        #expect(fits["body"]?.bytesValue?.count == 100)
    }

    static let badParamCases: [(JSONValue, String)] = [
        (["url": "ftp://example.com/"], "/url"),
        (["url": "not a url"], "/url"),
        (["url": "http://127.0.0.1:1/", "body": "a", "json": 1], "/json"),
        (["url": "http://127.0.0.1:1/", "method": "GET", "body": "a"], "/body"),
        (["url": "http://127.0.0.1:1/", "headers": ["X-Bad": "a\r\nInjected: 1"]], "/headers/X-Bad"),
        (["url": "http://127.0.0.1:1/", "headers": ["Bad Name": "a"]], "/headers/Bad Name"),
        (["url": "http://127.0.0.1:1/", "bytes": "text, not bytes"], "/bytes"),
        (["url": "http://127.0.0.1:1/", "method": "POST", "cache": true, "body": "x"], "/cache"),
    ]

    @Test("bad params name the field", arguments: badParamCases)
    func badParams(params: JSONValue, path: String) async throws {
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", params)
        #expect(error?.code == .badParams)
        #expect(error?.path == path)
    }

    @Test("a JSON content type with a body that is not JSON is E_FAILED protocol naming the status")
    func notJSON() async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let error = await call.failure("request", ["url": .string(server.base + "/notjson")])
        #expect(error?.details?["reason"] == "protocol")
        #expect(try await call("request", ["url": .string(server.base + "/notjson"), "responseType": "text"])["body"] == "<html>")
    }
}
