import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("the fold rule")
struct OperationFoldTests {
    static func op(_ type: SyncOperationType, _ opId: String, _ data: JSONObject?, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: "r", table: "t", type: type, data: data, timestamp: timestamp)
    }

    static let row = MaterializedRow(dataId: "r", data: ["a": 1, "b": 2], deleted: false, timestamp: 100, opId: "m")

    @Test("equal timestamps are decided by opId in byte order")
    func tieBreak() {
        #expect(OperationFold.wins(100, "n", over: 100, "m"))
        #expect(!OperationFold.wins(100, "l", over: 100, "m"))
        #expect(!OperationFold.wins(100, "m", over: 100, "m"))
        #expect(OperationFold.wins(101, "a", over: 100, "z"))
        #expect(OperationFold.wins(100, "é", over: 100, "z"))
    }

    @Test("an update merges fields, keeps the others, and does not revive a tombstone")
    func updateMerges() {
        let updated = OperationFold.apply(Self.op(.update, "n", ["b": 3, "c": nil], at: 100), to: Self.row)
        #expect(updated == MaterializedRow(dataId: "r", data: ["a": 1, "b": 3, "c": nil], deleted: false, timestamp: 100, opId: "n"))
        var tombstone = Self.row
        tombstone.deleted = true
        #expect(OperationFold.apply(Self.op(.update, "z", ["a": 5], at: 200), to: tombstone)?.deleted == true)
        #expect(OperationFold.apply(Self.op(.update, "a", ["a": 5], at: 99), to: Self.row) == nil)
    }

    @Test("an insert replaces the data and revives; a delete keeps the data")
    func insertAndDelete() {
        let inserted = OperationFold.apply(Self.op(.insert, "z", ["x": 1], at: 200), to: Self.row)
        #expect(inserted?.data == ["x": 1])
        let deleted = OperationFold.apply(Self.op(.delete, "z", nil, at: 200), to: Self.row)
        #expect(deleted == MaterializedRow(dataId: "r", data: ["a": 1, "b": 2], deleted: true, timestamp: 200, opId: "z"))
        #expect(OperationFold.apply(Self.op(.insert, "z", ["x": 1], at: 300), to: deleted)?.deleted == false)
    }

    @Test("batch conditions compare numbers with numbers and strings with strings, never across types")
    func conditions() throws {
        let change = try BatchChange(value: ["where": ["n": ["gte": 2, "lt": 5], "s": ["ne": "x"]], "set": ["hit": true]], at: "/data")
        #expect(change.matches(["n": 2, "s": "y"]))
        #expect(change.matches(["n": 4.5]))          // missing s reads as null, which is not "x"
        #expect(!change.matches(["n": 5, "s": "y"]))
        #expect(!change.matches(["n": "3", "s": "y"]))
        #expect(!change.matches(["n": 3, "s": "x"]))
        let strings = try BatchChange(value: ["where": ["name": ["gt": "b"], "tag": nil], "set": [:]], at: "/data")
        #expect(strings.matches(["name": "c"]))
        #expect(!strings.matches(["name": "a"]))
        #expect(!strings.matches(["name": "c", "tag": "t"]))
    }

    @Test("a batch filter with an unknown comparison is refused with its path")
    func unknownComparison() {
        #expect(throws: SyncWireError("data/where/due/between: unknown comparison \"between\", expected one of lt, lte, gt, gte, ne",
                                      path: "/data/where/due/between")) {
            try BatchChange(value: ["where": ["due": ["between": [1, 2]]], "set": [:]], at: "/data")
        }
    }
}
