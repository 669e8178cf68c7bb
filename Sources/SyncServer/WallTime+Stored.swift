import GRDB
import NIOCore
import PostgresNIO
import SystemIO

// How both stores keep a wall-clock time: seconds since 1970 as a double (SQLite REAL,
// PostgreSQL double precision), the columns' type since the first schema.

extension WallTime: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { secondsSince1970.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> WallTime? {
        Double.fromDatabaseValue(value).map(WallTime.init(secondsSince1970:))
    }
}

extension WallTime: PostgresEncodable, PostgresDecodable {
    public static var psqlType: PostgresDataType { Double.psqlType }
    public static var psqlFormat: PostgresFormat { Double.psqlFormat }

    public func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
        try secondsSince1970.encode(into: &buffer, context: context)
    }

    public init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                                  context: PostgresDecodingContext<JSONDecoder>) throws {
        self.init(secondsSince1970: try Double(from: &buffer, type: type, format: format, context: context))
    }
}
