/// A JSON value that keeps its object keys in the order given.
///
/// Written by hand rather than with `JSONSerialization`, which orders keys arbitrarily or
/// alphabetically: a result reads best as scenario, impl, n, k, then the figures.
enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The value as compact JSON text.
    var serialized: String {
        switch self {
        case .null:
            return "null"
        case let .bool(value):
            return value ? "true" : "false"
        case let .integer(value):
            return String(value)
        case let .number(value):
            // JSON has no NaN or infinity.
            return value.isFinite ? String(value) : "null"
        case let .string(value):
            return Self.quoted(value)
        case let .array(values):
            return "[" + values.map(\.serialized).joined(separator: ", ") + "]"
        case let .object(members):
            return "{" + members.map { Self.quoted($0) + ": " + $1.serialized }.joined(separator: ", ") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
