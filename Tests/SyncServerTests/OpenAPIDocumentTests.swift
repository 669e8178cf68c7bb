import Foundation
import HostTesting
import Hummingbird
import JSON
@testable import SyncServer
import Testing

/// The OpenAPI document (Sources/SyncServer/openapi.json) against the server that serves it.
/// `scripts/fuzz-sync-server` (in `make test`) holds every answer to it; these hold its outline.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    typealias Server = LiveSyncServer

    static func document() throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Sources/SyncServer/openapi.json")))))
    }

    @Test("GET /v1/openapi.json serves the document in the repository, without a token")
    func served() async throws {
        try await Server.with { server in
            let reply = try await server.get("/v1/openapi.json", token: nil)
            #expect(reply.status == 200)
            #expect(reply.headers[.contentType] == "application/json; charset=utf-8")
            #expect(reply.body == (try Self.document()))
        }
    }

    @Test("the document lists exactly the server's routes")
    func routes() throws {
        let paths = try #require(try Self.document()["paths"]?.objectValue)
        var documented: Set<String> = []
        for (path, operations) in paths {
            for (method, _) in operations.objectValue ?? [:] {
                documented.insert("\(method.uppercased()) \(path.replacingOccurrences(of: "{", with: ":").replacingOccurrences(of: "}", with: ""))")
            }
        }
        let routed = Set(SyncEndpoints.Route.allCases.map { "\($0.method.rawValue) \($0.path)" })
        #expect(documented == routed)
    }

    @Test("the document's error codes are the server's")
    func errorCodes() throws {
        let codes = try #require(try Self.document()["components"]?["schemas"]?["ErrorDetail"]?["properties"]?["code"]?["enum"]?.arrayValue)
        #expect(Set(codes.compactMap(\.stringValue)) == Set(SyncServerError.Code.allCases.map(\.rawValue)))
    }

    @Test("a method a path does not answer is 405 with Allow")
    func methodNotAllowed() async throws {
        try await Server.with { server in
            let reply = try await server.request(.put, "/v1/pull?deviceId=x", token: nil)
            #expect(reply.status == 405)
            #expect(reply.headers[.allow] == "GET")
            #expect(reply.errorCode == "method_not_allowed")
        }
    }
}
