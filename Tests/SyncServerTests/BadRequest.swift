import Testing

/// One refused request of the bad-request table: what is sent, and the answer it must get. `$A` and
/// `$B` in the URI and body stand for the ids of the two devices each case starts with; requests
/// are sent as device A unless ``token`` says otherwise.
struct BadRequest: Sendable, CustomTestStringConvertible {
    enum Token: Sendable {
        case deviceA
        case none
        case unknown
    }

    enum Body: Sendable {
        case none
        case text(String)
        /// A valid packet padded past this many bytes.
        case larger(than: Int)
        /// A valid packet of this many ops.
        case ops(Int)
    }

    let name: String
    var method = "POST"
    var uri = "/v1/push"
    var token = Token.deviceA
    let body: Body
    let status: Int
    let code: String
    var path: String?
    /// Text the error message must contain.
    var message: String?

    var testDescription: String { name }

    /// A packet from device A, `packetId` "bad", with `ops` as JSON text.
    static func packet(ops: String, extra: String = "") -> Body {
        .text(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": null\#(extra), "ops": [\#(ops)]}"#)
    }

    static let goodOp = #"{"opId": "bad-1", "dataId": "d", "table": "tasks", "type": "insert", "data": {"a": 1}, "dependencyId": null, "timestamp": 5}"#

    static let table: [BadRequest] = [
        BadRequest(name: "malformed JSON names its line and column",
                   body: .text("{\n  \"deviceId\": \"$A\",\n  \"packetId\" \"p\"\n}"), status: 400, code: "bad_request",
                   message: "malformed JSON at line 3, column 14: expected ':' after a key"),
        BadRequest(name: "an empty push body", body: .none, status: 400, code: "bad_request", message: "malformed JSON at line 1, column 1"),
        BadRequest(name: "a body that is not an object", body: .text("[1, 2]"), status: 400, code: "bad_request", path: "",
                   message: "body: expected object, got array"),
        BadRequest(name: "a missing packetId", body: .text(#"{"deviceId": "$A", "ops": []}"#), status: 400, code: "bad_request",
                   path: "/packetId", message: "packetId: expected string, missing"),
        BadRequest(name: "missing ops", body: .text(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": null}"#),
                   status: 400, code: "bad_request", path: "/ops", message: "ops: expected array, missing"),
        BadRequest(name: "a timestamp given as a string, in the second op",
                   body: packet(ops: goodOp + #", {"opId": "bad-2", "dataId": "d", "table": "tasks", "type": "update", "data": {}, "timestamp": "5"}"#),
                   status: 400, code: "bad_request", path: "/ops/1/timestamp", message: "ops/1/timestamp: expected number, got string"),
        BadRequest(name: "an op that is not an object", body: packet(ops: "42"), status: 400, code: "bad_request", path: "/ops/0",
                   message: "ops/0: expected object, got number"),
        BadRequest(name: "an unknown op type",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "d", "table": "tasks", "type": "upsert", "data": {}, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/type", message: "unknown op type \"upsert\""),
        BadRequest(name: "an insert without data",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "d", "table": "tasks", "type": "insert", "data": null, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/data", message: "ops/0/data: expected object, got null"),
        BadRequest(name: "a batch with an unknown comparison",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "*", "table": "tasks", "type": "batch", "data": {"where": {"due": {"between": 1}}, "set": {}}, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/data/where/due/between"),
        BadRequest(name: "a batch without set",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "*", "table": "tasks", "type": "batch", "data": {"where": {}}, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/data/set"),
        BadRequest(name: "a dependencyIdentifier that is a number",
                   body: .text(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": 7, "ops": []}"#),
                   status: 400, code: "bad_request", path: "/dependencyIdentifier",
                   message: "dependencyIdentifier: expected string or null, got number"),
        BadRequest(name: "a packet that depends on itself",
                   body: .text(#"{"deviceId": "$A", "packetId": "bad", "dependencyIdentifier": "bad", "ops": []}"#),
                   status: 400, code: "bad_request", path: "/dependencyIdentifier"),
        BadRequest(name: "an unknown token", token: .unknown, body: packet(ops: goodOp), status: 401, code: "unauthorized"),
        BadRequest(name: "no token", token: .none, body: packet(ops: goodOp), status: 401, code: "unauthorized"),
        BadRequest(name: "another device's id in the push",
                   body: .text(#"{"deviceId": "$B", "packetId": "bad", "dependencyIdentifier": null, "ops": [\#(goodOp)]}"#),
                   status: 403, code: "forbidden", path: "/deviceId"),
        BadRequest(name: "a body larger than maxBodyBytes", body: .larger(than: LiveBadRequestLimit.maxBodyBytes), status: 413, code: "too_large"),
        BadRequest(name: "more than 10,000 ops in one packet", body: .ops(10_001), status: 413, code: "too_large", path: "/ops"),
        BadRequest(name: "a pull for another device", method: "GET", uri: "/v1/pull?deviceId=$B&after=0", body: .none,
                   status: 403, code: "forbidden"),
        BadRequest(name: "a pull without deviceId", method: "GET", uri: "/v1/pull?after=0", body: .none, status: 400, code: "bad_request"),
        BadRequest(name: "a pull with a negative cursor", method: "GET", uri: "/v1/pull?deviceId=$A&after=-1", body: .none,
                   status: 400, code: "bad_request", path: "/after"),
        BadRequest(name: "a pull without a token", method: "GET", uri: "/v1/pull?deviceId=$A&after=0", token: .none, body: .none,
                   status: 401, code: "unauthorized"),
        BadRequest(name: "a snapshot with an unknown token", method: "GET", uri: "/v1/snapshot", token: .unknown, body: .none,
                   status: 401, code: "unauthorized"),
        BadRequest(name: "a packet record of another device", method: "GET", uri: "/v1/packets/p1?deviceId=$B", body: .none,
                   status: 403, code: "forbidden"),
        BadRequest(name: "a device name that is not a string", uri: "/v1/devices", token: .none, body: .text(#"{"name": 5}"#),
                   status: 400, code: "bad_request", path: "/name"),

        // Found by hostile input: ids are SQLite text, which ends at U+0000, so "bad\u0000x" was
        // taken for the packet "bad" (and answered as that one, its ops dropped).
        BadRequest(name: "a packetId with U+0000",
                   body: .text(#"{"deviceId": "$A", "packetId": "p1\u0000x", "dependencyIdentifier": null, "ops": [\#(goodOp)]}"#),
                   status: 400, code: "bad_request", path: "/packetId", message: "packetId: expected no U+0000 character"),
        BadRequest(name: "an opId with U+0000",
                   body: packet(ops: #"{"opId": "op-1\u0000x", "dataId": "d", "table": "tasks", "type": "insert", "data": {}, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/opId"),
        BadRequest(name: "a table with U+0000",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "d", "table": "tasks\u0000x", "type": "insert", "data": {}, "timestamp": 5}"#),
                   status: 400, code: "bad_request", path: "/ops/0/table"),
        BadRequest(name: "a pull for a deviceId with U+0000", method: "GET", uri: "/v1/pull?deviceId=$A%00", body: .none,
                   status: 400, code: "bad_request", path: "/deviceId"),
        BadRequest(name: "a packet record asked with U+0000 in its id", method: "GET", uri: "/v1/packets/p1%00x?deviceId=$A", body: .none,
                   status: 400, code: "bad_request", path: "/packetId"),
        BadRequest(name: "a snapshot page after a table with U+0000", method: "GET", uri: "/v1/snapshot?afterTable=tasks%00", body: .none,
                   status: 400, code: "bad_request", path: "/afterTable"),
        // schemathesis: afterDataId was read only beside afterTable, so one with U+0000 went unrefused.
        BadRequest(name: "an afterDataId with U+0000 and no afterTable", method: "GET", uri: "/v1/snapshot?afterDataId=x%00", body: .none,
                   status: 400, code: "bad_request", path: "/afterDataId"),
        // 1e400 read as infinity: logged, it came back as "timestamp": null, which no client
        // reads (a poison op for every device of the scope), and no later write could win
        // against the row's stamp.
        BadRequest(name: "a timestamp past the range of a double",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "d", "table": "tasks", "type": "insert", "data": {}, "timestamp": 1e400}"#),
                   status: 400, code: "bad_request", message: "number out of range: 1e400"),
        // The path named a scope column with "/" unescaped: /ops/0/data/where/a/b pointed nowhere.
        BadRequest(name: "a batch on a scoped table that names no scope, its column's name escaped in the path",
                   body: packet(ops: #"{"opId": "bad-1", "dataId": "*", "table": "scoped", "type": "batch", "data": {"where": {}, "set": {}}, "timestamp": 5, "scopeColumn": "a/b"}"#),
                   status: 403, code: "forbidden", path: "/ops/0/data/where/a~1b"),
        // A cursor past 2^53 came back rounded (9223372036854775807 as 9.223372036854776e+18): a
        // client could not send it again.
        BadRequest(name: "a cursor past 2^53 - 1", method: "GET", uri: "/v1/pull?deviceId=$A&after=9007199254740992", body: .none,
                   status: 400, code: "bad_request", path: "/after", message: "expected an integer from 0 to 9007199254740991"),
        BadRequest(name: "a pull held longer than a minute", method: "GET", uri: "/v1/pull?deviceId=$A&after=0&waitMs=60001", body: .none,
                   status: 400, code: "bad_request", path: "/waitMs", message: "waitMs: expected an integer from 0 to 60000, got \"60001\""),
        BadRequest(name: "a pull with a negative waitMs", method: "GET", uri: "/v1/pull?deviceId=$A&after=0&waitMs=-1", body: .none,
                   status: 400, code: "bad_request", path: "/waitMs"),
        BadRequest(name: "a limit past 2^53 - 1", method: "GET", uri: "/v1/snapshot?limit=9223372036854775807", body: .none,
                   status: 400, code: "bad_request", path: "/limit"),
        // schemathesis: `?deviceId=` was taken for no deviceId, which a device token may leave out.
        BadRequest(name: "an empty deviceId", method: "GET", uri: "/v1/snapshot?deviceId=", body: .none,
                   status: 400, code: "bad_request", path: "/deviceId", message: "got an empty string"),
        // schemathesis: Hummingbird's own 404 (and 404 for a wrong method) had no body.
        BadRequest(name: "a path the server does not have", method: "GET", uri: "/v1/nothing", body: .none,
                   status: 404, code: "not_found", message: "GET /v1/nothing: no such endpoint"),
        BadRequest(name: "a method the path does not answer", method: "DELETE", uri: "/v1/packets/p1", body: .none,
                   status: 405, code: "method_not_allowed", message: "expected GET"),
    ]
}

/// The body limit the bad-request servers run with: small, so the oversized case stays quick, but
/// above the 10,001-op packet so that one reaches the op count check.
enum LiveBadRequestLimit {
    static let maxBodyBytes = 4 * 1024 * 1024
}
