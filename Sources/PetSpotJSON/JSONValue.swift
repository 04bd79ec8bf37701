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

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

/// A JSON object that keeps its members in the order they were written or sent.
///
/// Keys are unique: setting an existing key replaces its value in place. Lookup is a linear scan,
/// which beats hashing for the dozen-key objects this package handles. Equality and hashing
/// ignore member order, as JSON equality does.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    /// One member of an object.
    public typealias Element = (key: String, value: JSONValue)

    /// The members in order.
    public private(set) var members: [Element]

    /// An empty object.
    public init() { members = [] }

    /// An object with these members, in this order; a repeated key keeps its last value at the
    /// position of its first occurrence.
    public init(_ members: [Element]) {
        self.members = []
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// Members exactly as given, without the uniqueness pass (for the parser, which already
    /// checked).
    package init(uniqueMembers: [Element]) { members = uniqueMembers }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Element { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Whether a member named `key` exists (its value may be `null`).
    public func contains(key: String) -> Bool { members.contains { $0.key == key } }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}
