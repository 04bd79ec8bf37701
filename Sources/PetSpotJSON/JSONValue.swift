/// A JSON document as a value: what the validator, the mock backend and the model all speak.
///
/// Unlike `JSONSerialization`, a `JSONValue` keeps what a strict backend and a JSON Schema
/// validator need: numbers as exact decimals (``JSONNumber``, so `1.0` is an integer and
/// `0.1 + 0.2` questions never arise), object keys in the order they were sent
/// (``JSONObject``), and `null` distinct from an absent key.
///
/// ```swift
/// let payload: JSONValue = ["species": "DOG", "age": 3]
/// payload["species"]?.stringValue   // "DOG"
/// payload.serialized()              // {"species":"DOG","age":3}
/// ```
///
/// Equality is JSON equality: numbers compare by value (`1` == `1.0`) and objects ignore key order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type name as JSON Schema spells it: `null`, `boolean`, `number`, `string`,
    /// `array` or `object` (integers are `number` here; see ``JSONNumber/isInteger``).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in bounds, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number when this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue {
    /// JSON equality: numbers by value, strings by code points (not Swift's canonical
    /// equivalence), arrays element-wise, objects by members regardless of order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): left.hasSameCodePoints(as: right)
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }

    /// Hashes consistently with ``==`` (numbers by value, objects regardless of order).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .number(let value): hasher.combine(2); hasher.combine(value)
        case .string(let value): hasher.combine(3); hasher.combine(value)
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .object(let value): hasher.combine(5); hasher.combine(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is `null`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is a number.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A floating-point literal is a number, spelled in Swift's shortest form.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    /// A string literal is a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is an object, members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

/// A JSON object that keeps its members in the order they were written or sent.
///
/// Keys are unique: setting an existing key replaces its value in place. Lookup is a linear scan,
/// which beats hashing for the dozen-key objects this package handles. Equality and hashing
/// ignore member order, as JSON equality does. Keys and values are stored as two parallel
/// arrays (``keys``, ``values``): reading a key then never copies its value, which is what keeps
/// the schema validator's member loops cheap.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    /// One member of an object.
    public typealias Element = (key: String, value: JSONValue)

    /// The keys in order.
    public private(set) var keys: [String]
    /// The values in order, parallel to ``keys``.
    public private(set) var values: [JSONValue]

    /// The members in order (built on each call: prefer ``keys``/``values`` in hot loops).
    public var members: [Element] {
        var result: [Element] = []
        result.reserveCapacity(keys.count)
        for index in keys.indices { result.append((key: keys[index], value: values[index])) }
        return result
    }

    /// An empty object.
    public init() {
        keys = []
        values = []
    }

    /// An object with these members, in this order; a repeated key keeps its last value at the
    /// position of its first occurrence.
    public init(_ members: [Element]) {
        keys = []
        values = []
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// Members exactly as given, without the uniqueness pass (for the parser, which already
    /// checked).
    package init(uniqueMembers: [Element]) {
        keys = uniqueMembers.map(\.key)
        values = uniqueMembers.map(\.value)
    }

    /// Keys and values exactly as given (same count, keys already unique).
    package init(uniqueKeys: [String], values: [JSONValue]) {
        keys = uniqueKeys
        self.values = values
    }

    /// The position of the first member.
    public var startIndex: Int { keys.startIndex }
    /// The position after the last member.
    public var endIndex: Int { keys.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> Element { (key: keys[position], value: values[position]) }

    /// The position of the member named `key` (compared code point by code point).
    public func index(forKey key: String) -> Int? {
        let length = key.utf8.count
        for index in keys.indices where keys[index].utf8.count == length && keys[index].hasSameCodePoints(as: key) {
            return index
        }
        return nil
    }

    /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return values[index]
        }
        set {
            if let index = index(forKey: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Whether a member named `key` exists (its value may be `null`).
    public func contains(key: String) -> Bool { index(forKey: key) != nil }

    /// Same members with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        for index in lhs.keys.indices {
            guard let other = rhs[lhs.keys[index]], other == lhs.values[index] else { return false }
        }
        return true
    }

    /// Hashes the members regardless of their order.
    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var combined = 0
        for index in keys.indices {
            var memberHasher = Hasher()
            memberHasher.combine(keys[index])
            memberHasher.combine(values[index])
            combined ^= memberHasher.finalize()
        }
        hasher.combine(keys.count)
        hasher.combine(combined)
    }
}
