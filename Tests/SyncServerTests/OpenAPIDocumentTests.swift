import Foundation
import HostTesting
import Hummingbird
import JSON
import SyncProtocol
@testable import SyncServer
import Testing

/// The OpenAPI document (Sources/SyncServer/openapi.json) against the server that serves it and
/// against SyncProtocol's wire types, whose encoders and decoders both sides use.
/// `scripts/fuzz-sync-server` (in `make test`) holds every answer to it; these hold its outline.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    typealias Server = LocalSyncServer

    static func document() throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Sources/SyncServer/openapi.json")))))
    }

    @Test("GET /v1/openapi.json serves the document in the repository, without a token", arguments: TestStore.allCases)
    func served(store: TestStore) async throws {
        try await Server.with(store: store) { server in
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

    @Test("the document's reasons, packet states and op types are the protocol's enums")
    func enums() throws {
        let schemas = try #require(try Self.document()["components"]?["schemas"])
        func documented(_ pointer: [String]) -> Set<String> {
            var value: JSONValue? = schemas
            for key in pointer { value = value?[key] }
            return Set((value?.arrayValue ?? []).compactMap(\.stringValue))
        }
        #expect(documented(["ErrorDetail", "properties", "reason", "enum"]) == Set(SyncServerError.Reason.allCases.map(\.rawValue)))
        #expect(documented(["PacketRecord", "properties", "state", "enum"]) == Set(PacketState.allCases.map(\.rawValue)))
        #expect(documented(["Operation", "properties", "type", "enum"]) == Set(SyncOperationType.allCases.map(\.rawValue)))
        #expect(documented(["LoggedOperation", "properties", "type", "enum"]) == Set(SyncOperationType.allCases.map(\.rawValue)))
    }

    /// One wire type against its schema: `forms` are what its encoder writes (the first one, whose
    /// fields are taken away one by one, read by `decode`).
    struct WireForm: CustomTestStringConvertible, Sendable {
        var schema: String
        var forms: [JSONValue]
        var decode: @Sendable (JSONValue) throws -> Void
        var testDescription: String { schema }
    }

    static let wireForms: [WireForm] = [
        WireForm(schema: "PullPage", forms: [WireSamples.pullPage.json, PullPage(ops: [], cursor: 0, more: false).json]) { _ = try PullPage.decode($0) },
        WireForm(schema: "LoggedOperation", forms: WireSamples.pullPage.ops.map(\.json)) { _ = try LoggedOperation.decode($0, at: "") },
        WireForm(schema: "Operation", forms: [.object(WireSamples.scopedDelete.json), .object(WireSamples.insert.json)]) { _ = try SyncOperation.decode($0, at: "") },
        WireForm(schema: "PushPacket", forms: [WireSamples.packet.json]) { _ = try PushPacket.decode($0) },
        WireForm(schema: "PushApplied", forms: [PushAnswer.applied(applied: ["o1"], duplicates: ["o0"], cursor: 4).json]) {
            _ = try PushAnswer.decode(status: 200, body: $0)
        },
        WireForm(schema: "PushHeld", forms: [PushAnswer.held(packetId: "p2", waitingFor: "p1").json]) { _ = try PushAnswer.decode(status: 202, body: $0) },
        WireForm(schema: "PushRejected", forms: WireSamples.rejections.map { PushAnswer.rejected($0).json }) {
            // A 409 without `rejected` is no push answer: a refusal, read as an error.
            guard try PushAnswer.decode(status: 409, body: $0) != nil else { throw SyncWireError.field("/rejected", expected: "true", got: nil) }
        },
        WireForm(schema: "PacketRecord", forms: WireSamples.records.map(\.json)) { _ = try PacketRecord.decode($0) },
        WireForm(schema: "Snapshot", forms: [WireSamples.lastSnapshotPage.json, WireSamples.snapshotPage.json]) { _ = try SyncSnapshot.decode($0) },
        WireForm(schema: "MaterializedRow", forms: WireSamples.rows.map(\.json)) { _ = try MaterializedRow.decode($0, at: "") },
        WireForm(schema: "Error", forms: [WireSamples.refusal.json]) { _ = try SyncServerError.decode($0) },
        WireForm(schema: "ErrorDetail", forms: [.object(WireSamples.refusal.detail), .object(SyncServerError(.notFound, "no").detail)]) {
            _ = try SyncServerError.decodeDetail($0, at: "")
        },
        WireForm(schema: "RegisteredDevice", forms: [RegisteredDevice(deviceId: "d1", token: "t").json, RegisteredDevice(deviceId: "d1").json]) {
            _ = try RegisteredDevice.decode($0)
        },
    ]

    @Test("each wire type writes exactly the properties its schema lists, and its decoder requires exactly the required ones",
          arguments: wireForms)
    func wireType(_ wire: WireForm) throws {
        let schema = try #require(try Self.document()["components"]?["schemas"]?[wire.schema], "no schema \(wire.schema)")
        let properties = Set(try #require(schema["properties"]?.objectValue).keys)
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let written = wire.forms.map { Set($0.objectValue?.keys ?? []) }
        #expect(written.reduce(into: Set<String>()) { $0.formUnion($1) } == properties, "the encoder writes what the document lists")
        for keys in written { #expect(required.isSubset(of: keys), "every form writes the required properties") }
        let full = try #require(wire.forms.first?.objectValue)
        try wire.decode(.object(full))
        var refusedWithout: Set<String> = []
        for key in full.keys {
            let lacking = JSONObject(full.members.filter { $0.key != key })
            do {
                try wire.decode(.object(lacking))
            } catch let error as SyncWireError {
                #expect(error.path == "/" + key, "without \(key): \(error)")
                refusedWithout.insert(key)
            }
        }
        #expect(refusedWithout == required, "the decoder requires what the document requires")
    }

    @Test("a method a path does not answer is 405 with Allow", arguments: TestStore.allCases)
    func methodNotAllowed(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let reply = try await server.request(.put, "/v1/pull?deviceId=x", token: nil)
            #expect(reply.status == 405)
            #expect(reply.headers[.allow] == "GET")
            #expect(reply.errorCode == "method_not_allowed")
        }
    }
}
