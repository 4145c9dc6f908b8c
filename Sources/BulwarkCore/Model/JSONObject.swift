import Foundation

/// A JSON object as its members in order. An export's objects have a few
/// members each: found by a look along them, which is faster than hashing
/// every name into a dictionary (that was a fifth of a 100,000-item import).
public struct JSONObject: @unchecked Sendable {  // built once by the reader, then only read; its values are values too
    /// The names and the values apart: a look along the names copies no value.
    public let keys: [String]
    private let values: [Any]

    public init() {
        keys = []
        values = []
    }

    init(keys: [String], values: [Any]) {
        self.keys = keys
        self.values = values
    }

    /// The member's value; the last one when a name repeats (as a dictionary would keep it).
    public subscript(key: String) -> Any? {
        var index = keys.count
        while index > 0 {
            index -= 1
            if keys[index] == key { return values[index] }
        }
        return nil
    }

    /// As Foundation's types, for `JSONSerialization` (a value kept as JSON text).
    var foundation: [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in zip(keys, values) { object[key] = Self.foundation(value) }
        return object
    }

    static func foundation(_ value: Any) -> Any {
        if let object = value as? JSONObject { return object.foundation }
        if let array = value as? [Any] { return array.map(foundation) }
        return value
    }
}
