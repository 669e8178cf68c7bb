import Bridge
import HostTesting
import JSON
import Persistence
@testable import Storage
import Testing

@Suite("storage and kv params")
struct StorageParamsTests {
    func call(_ service: some BridgeService, _ action: String, _ params: JSONValue, in directory: TemporaryFolder) async throws -> JSONValue {
        let app = AppContext(name: "params-tests", version: "1", dataDirectory: directory.path, grants: .all)
        let call = ServiceCall(target: service.target, action: action, params: params, app: app)
        return try await #require(service.actions[action]).perform(call)
    }

    @Test("a transaction's ops decode by their action, each with the fields its action needs")
    func transactionOps() throws {
        let params = try TransactionParams(param: [
            "database": "tasks",
            "ops": [
                ["action": "insert", "table": "tasks", "records": [["title": "milk"]]],
                ["action": "update", "table": "tasks", "where": ["done": false], "set": ["done": true]],
                ["action": "find", "table": "tasks", "orderBy": "-due", "limit": 2, "offset": 1, "columns": ["title"]],
                ["action": "count", "table": "tasks"],
                ["action": "delete", "table": "tasks"],
            ],
        ], at: .root)
        #expect(params.database == "tasks" && params.ops.count == 5)
        guard case .insert(let insert) = params.ops[0], case .update(let update) = params.ops[1], case .find(let find) = params.ops[2],
              case .count(let count) = params.ops[3], case .delete(let delete) = params.ops[4] else {
            Issue.record("ops decoded as the wrong actions: \(params.ops)")
            return
        }
        #expect(insert.records == [["title": "milk"]])
        #expect(update.filter == ["done": false] && update.set == ["done": true])
        #expect(find.orderBy == "-due" && find.limit == 2 && find.offset == 1 && find.columns == ["title"])
        #expect(count.filter == nil && delete.filter == nil)
    }

    @Test("an op without its action's fields, or with an unknown action, is refused at its path", arguments: [
        (["action": "insert", "table": "tasks"], "/ops/0/records", #"missing required property "records""#),
        (["action": "update", "table": "tasks"], "/ops/0/set", #"missing required property "set""#),
        (["action": "find"], "/ops/0/table", #"missing required property "table""#),
        (["action": "upsert", "table": "tasks"], "/ops/0/action", #"expected one of insert, update, delete, find, count, got "upsert""#),
        (["action": "insert", "table": "tasks", "records": [["title": "a"], "b"]], "/ops/0/records/1", "expected an object, got \"b\""),
    ] as [(JSONValue, String, String)])
    func badOps(_ op: JSONValue, _ path: String, _ message: String) throws {
        let error = try #require(throws: BridgeError.self) { try TransactionParams(param: ["database": "tasks", "ops": [op]], at: .root) }
        #expect(error.code == .badParams && error.path == path)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("watch's timeout defaults to the contract's 30 s; since stays unset")
    func watchDefaults() throws {
        let params = try WatchParams(param: ["database": "tasks"], at: .root)
        #expect(params.timeoutMs == 30_000 && params.since == nil && params.tables == nil)
    }

    @Test("setMany's items take the call's bucket unless they name one, and keep their paths for the store's errors")
    func setManyBuckets() throws {
        let params = try KeyValueSetManyParams(param: [
            "bucket": "shared", "items": [["key": "a", "value": 1], ["bucket": "own", "key": "b", "value": 2, "ttlSeconds": 5]],
        ], at: .root)
        #expect(params.items.map(\.bucket) == ["shared", "own"])
        #expect(params.items.map(\.path) == ["/items/0", "/items/1"])
        #expect(params.items[1].ttlSeconds == 5 && params.items[0].metadata == .null)
        let error = try #require(throws: BridgeError.self) {
            try KeyValueSetManyParams(param: ["items": [["bucket": "own", "key": "a", "value": 1], ["key": "b", "value": 2]]], at: .root)
        }
        #expect(error.path == "/items/1/bucket" && error.message.contains("here or for the whole call"))
    }

    @Test("storage's actions run on their typed params: open, insert, a transaction, find")
    func storageActions() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let storage = StorageService(registry: DataCenterRegistry())
        let schema: JSONValue = ["version": 1, "tables": ["tasks": ["columns": ["title": "TEXT NOT NULL", "due": "INTEGER"]]]]
        #expect(try await call(storage, "open", ["database": "tasks", "schema": schema], in: directory) == ["database": "tasks", "version": 1])
        #expect(try await call(storage, "insert", ["database": "tasks", "table": "tasks", "records": [["title": "a", "due": 2], ["title": "b", "due": 1]]],
                               in: directory) == ["inserted": 2])
        let results = try await call(storage, "transaction", ["database": "tasks", "ops": [
            ["action": "update", "table": "tasks", "where": ["title": "a"], "set": ["due": 3]],
            ["action": "find", "table": "tasks", "orderBy": "-due", "limit": 1, "columns": ["title"]],
        ]], in: directory)
        #expect(results == ["results": [["changed": 1], ["records": [["title": "a"]]]]])
        #expect(try await call(storage, "count", ["database": "tasks", "table": "tasks", "where": ["due": ["lt": 3]]], in: directory) == ["count": 1])
    }

    @Test("kv's actions run on their typed params: setMany, get, getMany, keys")
    func keyValueActions() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let kv = KeyValueService()
        #expect(try await call(kv, "setMany", ["bucket": "b", "items": [["key": "k1", "value": 1], ["key": "k2", "value": "two"]]], in: directory)
            == ["written": 2])
        #expect(try await call(kv, "get", ["bucket": "b", "key": "k2"], in: directory)["value"] == "two")
        let many = try await call(kv, "getMany", ["items": [["bucket": "b", "key": "k1"], ["bucket": "b", "key": "nope"]]], in: directory)
        #expect(many["entries"]?[0]?["value"] == 1 && many["entries"]?[1] == .null)
        #expect(try await call(kv, "keys", ["bucket": "b", "limit": 1], in: directory) == ["keys": ["k1"]])
    }
}
