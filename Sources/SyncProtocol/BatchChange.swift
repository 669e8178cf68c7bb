import JSON

/// The `data` of a batch op: `{"where": {FIELD: value | {"lt"|"lte"|"gt"|"gte"|"ne": value}},
/// "set": {FIELD: value}}`. Every condition must hold (AND); an empty `where` matches every live row.
public struct BatchChange: Sendable, Equatable {
    public var conditions: [BatchCondition]
    public var set: JSONObject

    public init(conditions: [BatchCondition], set: JSONObject) {
        self.conditions = conditions
        self.set = set
    }

    /// Reads a batch op's `data`; `pointer` (`/ops/2/data`) names the field at fault.
    public init(value: JSONValue?, at pointer: String) throws(SyncWireError) {
        let fields = try FieldReader(value, at: pointer)
        let filter = try FieldReader(fields.object["where"], at: fields.path("where"))
        var conditions: [BatchCondition] = []
        for (field, test) in filter.object {
            guard case .object(let operators) = test else {
                conditions.append(BatchCondition(field: field, comparison: .eq, value: test))
                continue
            }
            let fieldPointer = filter.path(field)
            guard !operators.isEmpty else {
                throw SyncWireError.invalid(fieldPointer, "expected a value or an object of lt, lte, gt, gte, ne; got an empty object")
            }
            for (name, operand) in operators {
                guard let comparison = BatchCondition.Comparison(rawValue: name), comparison != .eq else {
                    throw SyncWireError.invalid(JSONPointer.appending(fieldPointer, key: name),
                                                  "unknown comparison \"\(name)\", expected one of lt, lte, gt, gte, ne")
                }
                conditions.append(BatchCondition(field: field, comparison: comparison, value: operand))
            }
        }
        let set = try FieldReader(fields.object["set"], at: fields.path("set")).object
        self.init(conditions: conditions, set: set)
    }

    /// Whether a row's data passes every condition.
    public func matches(_ data: JSONObject) -> Bool {
        conditions.allSatisfy { $0.matches(data) }
    }
}
