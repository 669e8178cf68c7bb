import Bridge
import CurlTransport
import Foundation
import JSON
import Testing

@Suite("network fields that would split a header or leave the data folder")
struct NetworkFieldTests {
    /// A header name and value that curl would send as something else, and the field named.
    static let badHeaders: [(String, String, String)] = [
        ("X-Bad", "a\r\nInjected: 1", "/headers/X-Bad"),
        ("X-Bad", "a\nInjected: 1", "/headers/X-Bad"),
        ("X-Bad", "a\rInjected: 1", "/headers/X-Bad"),
        ("X-Bad", "a\u{0}b", "/headers/X-Bad"),
        ("X-Bad\r\nInjected", "1", "/headers/X-Bad\r\nInjected"),
        ("X-Bad\u{0}", "1", "/headers/X-Bad\u{0}"),
        ("X-Bad: x", "1", "/headers/X-Bad: x"),
        ("", "1", "/headers/"),
    ]

    @Test("a header with a line break or NUL in its name or value is E_BAD_PARAMS at it, for request and download, and never sent",
          arguments: badHeaders)
    func headers(name: String, value: String, path: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let hit = UUID().uuidString
        let params: JSONObject = ["url": .string(server.base + "/count/\(hit)"), "headers": .object([name: .string(value)])]
        for (action, error) in await call.failures(requestAndDownload: params) {
            #expect(error?.code == .badParams, "\(action)")
            #expect(error?.path == path, "\(action)")
        }
        #expect(server.hits["count/\(hit)"] == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory).isEmpty)
    }

    @Test("the transport refuses such a header too, whoever builds the request")
    func transport() async throws {
        let server = try await SharedServer.get()
        let hit = UUID().uuidString
        let request = TransferRequest(url: server.base + "/count/\(hit)", headers: [("Authorization", "Bearer a\r\nX-Injected: 1")])
        let error = await #expect(throws: TransferError.self) { try await CurlClient.shared.perform(request) }
        #expect(error?.reason == .badHeader)
        #expect(server.hits["count/\(hit)"] == 0)
    }

    @Test("download paths that leave the data folder, or that a C string would cut short, are E_BAD_PARAMS at /path",
          arguments: ["../escape.bin", "a/../../escape.bin", "./../escape.bin", "patches/../../escape.bin", "/tmp/escape.bin",
                      "a\u{0}/../../escape.bin", "..", "a/.."])
    func paths(path: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let parent = (call.dataDirectory as NSString).deletingLastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix("escape") }
        let error = await call.failure("download", ["url": .string(server.base + "/bytes?n=10"), "path": .string(path)])
        #expect(error?.code == .badParams)
        #expect(error?.path == "/path")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).filter { $0.hasPrefix("escape") } == before)
    }
}
